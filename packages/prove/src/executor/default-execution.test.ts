import { describe, expect, it } from 'vitest';
import { defaultExecution, isTypeScriptTarget, THREADS_FROM_EPISODES, THREADS_FROM_EPISODES_TS } from './default-execution.js';

describe('defaultExecution', () => {
  const big = { episodes: 100_000, moduleTarget: true, budget: false };
  it('takes 2 worker threads on a 2-core machine, where they measured faster than one process', () => {
    expect(defaultExecution({ cores: 2, ...big })).toEqual({ backend: 'threads', concurrency: 2 });
    expect(defaultExecution({ cores: 3, ...big })).toEqual({ backend: 'threads', concurrency: 2 });
    expect(defaultExecution({ cores: 2, ...big, typescript: true })).toEqual({ backend: 'threads', concurrency: 2 });
  });
  it('stays in process on one core', () => {
    expect(defaultExecution({ cores: 1, ...big })).toEqual({ backend: 'local', concurrency: 1 });
  });
  it('takes worker threads, one core left to the main thread, from 4 cores, at most 8', () => {
    expect(defaultExecution({ cores: 4, ...big })).toEqual({ backend: 'threads', concurrency: 3 });
    expect(defaultExecution({ cores: 64, ...big })).toEqual({ backend: 'threads', concurrency: 8 });
  });
  it('stays in process for a small run, a function target or a token budget', () => {
    expect(defaultExecution({ cores: 2, ...big, moduleTarget: false })).toEqual({ backend: 'local', concurrency: 1 });
    expect(defaultExecution({ cores: 2, ...big, budget: true })).toEqual({ backend: 'local', concurrency: 1 });
  });
  // Measured with fresh CLI processes (docs/performance.md, "The default"): 20,000 episodes of the depth-3
  // reference target ran faster in process than on 2 worker threads, 50,000 slower; a TypeScript target,
  // which each thread compiles through tsx, was still faster in process at 50,000 and slower at 100,000.
  it('takes threads from 50,000 episodes of a JavaScript target, from 100,000 of a TypeScript one', () => {
    expect(THREADS_FROM_EPISODES).toBe(50_000);
    expect(THREADS_FROM_EPISODES_TS).toBe(100_000);
    for (const cores of [2, 8]) {
      expect(defaultExecution({ cores, ...big, episodes: 20_000 }).backend).toBe('local');
      expect(defaultExecution({ cores, ...big, episodes: 49_999 }).backend).toBe('local');
      expect(defaultExecution({ cores, ...big, episodes: 50_000 }).backend).toBe('threads');
      expect(defaultExecution({ cores, ...big, episodes: 50_000, typescript: false }).backend).toBe('threads');
      expect(defaultExecution({ cores, ...big, episodes: 50_000, typescript: true }).backend).toBe('local');
      expect(defaultExecution({ cores, ...big, episodes: 99_999, typescript: true }).backend).toBe('local');
      expect(defaultExecution({ cores, ...big, episodes: 100_000, typescript: true }).backend).toBe('threads');
    }
  });
});

describe('isTypeScriptTarget', () => {
  it('reads the extension of FILE in FILE:NAME, as load-target loads it', () => {
    expect(isTypeScriptTarget('./targets.ts:reference_depth_d3')).toBe(true);
    expect(isTypeScriptTarget('targets.mts:a')).toBe(true);
    expect(isTypeScriptTarget('C:\\work\\targets.cts:a')).toBe(true);
    expect(isTypeScriptTarget('./targets.mjs:reference_depth_d3')).toBe(false);
    expect(isTypeScriptTarget('./targets.js:a')).toBe(false);
    expect(isTypeScriptTarget('./ts:a')).toBe(false);
    expect(isTypeScriptTarget('./targets.ts')).toBe(false); // no NAME: not a FILE:NAME (load-target refuses it)
  });
});
