// Helpers for the end-to-end tests that run the built CLI as a subprocess: bin/poisson-prove.js, the command
// npm links, which runs the build's CLI (dist/bundle/cli-script.js from its code cache, else dist/bundle/main.js; scripts/bundle-dist.mjs).
import { spawn, type ChildProcess } from 'node:child_process';
import { watch, readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { startRedis, type TestRedis } from '../src/__fixtures__/bullmq-redis-server.js';
import { removeDir, tempDir } from '../src/__fixtures__/helpers.js';

export const MAIN = fileURLToPath(new URL('../bin/poisson-prove.js', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('../src/__fixtures__/', import.meta.url));

export type Done = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** Starts the built CLI; `done` settles when it exits. */
export function start(args: string[], opts: { cwd: string; env?: Record<string, string> }): { child: ChildProcess; done: Promise<Done> } {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<Done>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

/** A started CLI process ({@link start}). */
export type Child = { child: ChildProcess; done: Promise<Done> };

/** Kills (SIGKILL) the children still running and waits until every child has exited (afterAll). */
export async function killAll(children: readonly Child[]): Promise<void> {
  for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  await Promise.all(children.map((c) => c.done));
}

export function run(args: string[], opts: { cwd: string; env?: Record<string, string> }): Promise<Done> {
  return start(args, opts).done;
}

/**
 * Resolves with the directory's entries once `test` accepts them, driven by fs.watch events (no polling
 * sleeps); resolves with null if `until` settles first (e.g. the process exited).
 */
export function waitForEntries(dir: string, test: (names: string[]) => boolean, until: Promise<unknown>): Promise<string[] | null> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (v: string[] | null): void => {
      if (settled) return;
      settled = true;
      watcher?.close();
      resolve(v);
    };
    const check = (): void => {
      const names = existsSync(dir) ? readdirSync(dir) : [];
      if (test(names)) finish(names);
    };
    let watcher: ReturnType<typeof watch> | undefined;
    try {
      watcher = watch(dir, check);
    } catch {
      watcher = undefined;
    }
    check();
    void until.then(() => {
      check();
      finish(null);
    });
  });
}

/**
 * A suite's own redis-server (no password) and temporary directory: started before its tests, stopped
 * and removed after them. Read `redis` and `dir` inside the tests (they are set by then).
 */
export function suiteRedis(prefix: string): { readonly redis: TestRedis; readonly dir: string } {
  const state: { redis?: TestRedis; dir?: string } = {};
  beforeAll(async () => {
    state.redis = await startRedis();
    state.dir = await tempDir(prefix);
  }, 30_000);
  afterAll(async () => {
    await state.redis?.stop();
    if (state.dir) await removeDir(state.dir);
  });
  return {
    get redis(): TestRedis {
      return state.redis as TestRedis;
    },
    get dir(): string {
      return state.dir as string;
    },
  };
}
