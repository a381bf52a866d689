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
  it('stays in process for a function target or a token budget', () => {
    expect(defaultExecution({ cores: 2, ...big, moduleTarget: false })).toEqual({ backend: 'local', concurrency: 1 });
    expect(defaultExecution({ cores: 2, ...big, budget: true })).toEqual({ backend: 'local', concurrency: 1 });
  });
  // `npm run bench -- prove/bench/default-backend` (docs/performance.md, "The default"): fresh CLI sweeps
  // of the depth-3 reference target on 2 cores ran faster in process at 20,000 and 30,000 episodes, and
  // on 2 worker threads from 50,000, as JavaScript and as TypeScript.
  it('takes threads from 50,000 episodes, and stays in process below', () => {
    for (const cores of [2, 8]) {
      expect(defaultExecution({ cores, ...big, episodes: 20_000 }).backend).toBe('local');
      expect(defaultExecution({ cores, ...big, episodes: 30_000 }).backend).toBe('local');
      expect(defaultExecution({ cores, ...big, episodes: 49_999 }).backend).toBe('local');
      expect(defaultExecution({ cores, ...big, episodes: 50_000 }).backend).toBe('threads');
    }
  });
});
