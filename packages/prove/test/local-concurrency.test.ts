// `sweep --concurrency N` with the local backend started N slots whatever the run's episodes: a review of
// the CLI's error paths (2026-12-07) ran `--concurrency 99999999999999999999` on a run of 16 episodes,
// and the process ran out of heap (V8's "Last few GCs", killed) after marking its run running. The
// backend now starts no more slots than there are episodes to run, as the threads backend (721d0b6).
// Run with a 64 MB heap, so that the old loop fails in a second or two rather than filling the machine.
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRuns } from '../src/index.js';
import { removeDir, tempDir } from '../src/__fixtures__/helpers.js';
import { FIXTURES, MAIN } from './helpers.js';

let dir: string;
beforeAll(async () => {
  dir = await tempDir('prove-concurrency-');
});
afterAll(async () => {
  await removeDir(dir);
});

function runSmallHeap(args: string[], cwd: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--max-old-space-size=64', MAIN, ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

describe('the local backend with a concurrency far above the run\'s episodes', () => {
  it('runs the 16 episodes and ends, rather than starting a slot per unit of concurrency', async () => {
    const store = join(dir, 'store');
    await mkdir(store);
    const r = await runSmallHeap(['--store', store, 'sweep', `${FIXTURES}spec.toml`, '--target', `${FIXTURES}targets.mjs:coin`, '--max-mde', '0.99', '--yes', '--quiet', '--backend', 'local', '--concurrency', '99999999999999999999'], dir);
    expect({ code: r.code, signal: r.signal, stderr: r.stderr.slice(0, 300) }).toEqual({ code: 0, signal: null, stderr: '' });
    const [m] = await listRuns(store);
    expect([m?.status, m?.counts.rows]).toEqual(['complete', 16]);
  }, 60_000);
});
