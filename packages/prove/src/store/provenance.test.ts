// A run records the git state of the directory it ran in; the CLI's sweep asks for it ahead (while the
// target loads), and a state asked ahead is taken once, for the same directory, while it is fresh.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GIT_AHEAD_MS, gitState, prefetchGitState } from './provenance.js';

let repo: string;
let other: string;
beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'prove-git-'));
  other = await mkdtemp(join(tmpdir(), 'prove-nogit-'));
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: repo, encoding: 'utf8' });
  git('init', '-q');
  await writeFile(join(repo, 'a.txt'), 'a\n');
  git('add', 'a.txt');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.org', 'commit', '-q', '-m', 'a');
});
afterAll(async () => {
  await rm(repo, { recursive: true, force: true });
  await rm(other, { recursive: true, force: true });
});

describe('gitState', () => {
  it('gives the commit and whether the work tree is dirty, null outside a work tree', async () => {
    const s = await gitState(repo);
    expect(s?.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(s?.dirty).toBe(false);
    expect(await gitState(other)).toBeNull();
  });

  it('takes a state asked ahead once, for the same directory; every other call asks git', async () => {
    const file = join(repo, 'new.txt');
    try {
      await prefetchGitState(repo);
      await writeFile(file, 'untracked\n');
      // The state asked ahead (before the file was written) is the one taken, once.
      expect((await gitState(repo))?.dirty).toBe(false);
      expect((await gitState(repo))?.dirty).toBe(true);
      // Asked ahead for another directory: not taken.
      await prefetchGitState(other);
      expect((await gitState(repo))?.dirty).toBe(true);
    } finally {
      await rm(file, { force: true });
    }
  });

  it('asks git again when the state asked ahead is older than GIT_AHEAD_MS', async () => {
    const file = join(repo, 'late.txt');
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      await prefetchGitState(repo);
      await writeFile(file, 'untracked\n');
      vi.setSystemTime(Date.now() + GIT_AHEAD_MS + 1);
      expect((await gitState(repo))?.dirty).toBe(true);
    } finally {
      vi.useRealTimers();
      await rm(file, { force: true });
    }
  });
});
