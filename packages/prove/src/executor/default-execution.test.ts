import { describe, expect, it } from 'vitest';
import { defaultExecution } from './default-execution.js';

describe('defaultExecution', () => {
  const big = { episodes: 100_000, moduleTarget: true, budget: false };
  it('takes 2 worker threads on a 2-core machine, where they measured faster than one process', () => {
    expect(defaultExecution({ cores: 2, ...big })).toEqual({ backend: 'threads', concurrency: 2 });
    expect(defaultExecution({ cores: 3, ...big })).toEqual({ backend: 'threads', concurrency: 2 });
  });
  it('stays in process on one core', () => {
    expect(defaultExecution({ cores: 1, ...big })).toEqual({ backend: 'local', concurrency: 1 });
  });
  it('takes worker threads, one core left to the main thread, from 4 cores, at most 8', () => {
    expect(defaultExecution({ cores: 4, ...big })).toEqual({ backend: 'threads', concurrency: 3 });
    expect(defaultExecution({ cores: 64, ...big })).toEqual({ backend: 'threads', concurrency: 8 });
  });
  it('stays in process for a small run, a function target or a token budget', () => {
    expect(defaultExecution({ cores: 2, ...big, episodes: 19_999 })).toEqual({ backend: 'local', concurrency: 1 });
    expect(defaultExecution({ cores: 2, ...big, moduleTarget: false })).toEqual({ backend: 'local', concurrency: 1 });
    expect(defaultExecution({ cores: 2, ...big, budget: true })).toEqual({ backend: 'local', concurrency: 1 });
    expect(defaultExecution({ cores: 8, ...big, episodes: 19_999 })).toEqual({ backend: 'local', concurrency: 1 });
  });
});
