// What a process loads: importing poisson-prove, or running a verb that needs no queue, loads neither
// bullmq nor ioredis (issue 18, item 3; issue 13); --help and `runs` load no Arrow and no parquet
// writer either. Each case runs in a child process with src/__fixtures__/loaded-modules.mjs, which lists
// every module file the process loaded (ES modules and CommonJS). Uses the build (dist/).
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { FIXTURES, MAIN } from './helpers.js';

/** The package's folder: there 'poisson-prove' resolves to itself (its exports map). */
const PACKAGE = fileURLToPath(new URL('..', import.meta.url));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'prove-graph-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The packages (node_modules names) and the number of files a child process loaded. */
async function loaded(args: string[], name: string, status = 0, cwd = dir): Promise<{ packages: Set<string>; files: string[] }> {
  const out = join(dir, `${name}.txt`);
  const r = spawnSync(process.execPath, ['--import', join(FIXTURES, 'loaded-modules.mjs'), ...args], {
    cwd,
    env: { ...process.env, LOADED_MODULES_OUT: out },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(status);
  const files = (await readFile(out, 'utf8')).split('\n').filter((l) => l !== '');
  const packages = new Set(files.map((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f)?.[1]).filter((p): p is string => p !== undefined));
  return { packages, files };
}

describe('the module graph', () => {
  it("import('poisson-prove') loads neither bullmq nor ioredis", async () => {
    const g = await loaded(['--input-type=module', '-e', "await import('poisson-prove')"], 'import', 0, PACKAGE);
    // The list is real: it holds the package itself and the parquet reader it imports.
    expect(g.files.some((f) => f.endsWith('/packages/prove/dist/index.js'))).toBe(true);
    expect(g.packages.has('hyparquet')).toBe(true);
    expect(g.packages.has('bullmq')).toBe(false);
    expect(g.packages.has('ioredis')).toBe(false);
  });

  it('poisson-prove --help loads no queue, no Arrow, no parquet writer, no progress bar', async () => {
    const g = await loaded([MAIN, '--help'], 'help');
    expect(g.files.some((f) => f.endsWith('/packages/prove/dist/cli/main.js'))).toBe(true);
    for (const p of ['bullmq', 'ioredis', 'apache-arrow', 'hyparquet-writer', 'cli-progress']) expect(g.packages.has(p), p).toBe(false);
  });

  it('poisson-prove runs loads no queue, no Arrow, no parquet reader or writer', async () => {
    mkdirSync(join(dir, 'store'), { recursive: true }); // runs on a store that does not exist exits 2
    const g = await loaded([MAIN, '--store', join(dir, 'store'), 'runs'], 'runs');
    for (const p of ['bullmq', 'ioredis', 'apache-arrow', 'hyparquet', 'hyparquet-writer', 'cli-progress']) expect(g.packages.has(p), p).toBe(false);
  });

  it('a bullmq worker does load the Redis client (the check sees a package when it is loaded)', async () => {
    // Nothing listens on port 1: the worker's first PING fails at once (exit 2), through ioredis.
    const g = await loaded([MAIN, 'worker', '--redis', 'redis://127.0.0.1:1'], 'worker', 2);
    expect(g.packages.has('ioredis')).toBe(true);
  });
});
