// What a process loads: importing poisson-prove, or running a verb that needs no queue, loads neither
// bullmq nor ioredis (issue 18, item 3; issue 13); --help and `runs` load no Arrow and no parquet
// writer either; a sweep of poisson-tasks' reference target counts its prompt tokens without compiling
// gpt-tokenizer's o200k rank array (issue 13: ~150 ms of every sweep process). Each case runs in a child process with src/__fixtures__/loaded-modules.mjs, which lists
// every module file the process loaded (ES modules and CommonJS). Uses the build (dist/).
// The CLI runs in one of two forms (bin/poisson-prove.js): the ES module bundle (dist/bundle/main.js and
// its chunks) or, when the build's code cache is there, the same modules as one script compiled from
// that cache (dist/bundle/cli-script.js), whose modules are not files. The cases below pin the ES module
// bundle (a cache file that does not exist), where each lazy import is a file the list shows; the last
// describe runs the script form, where the dependencies it loads are still files.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { episodes } from 'poisson-prove';
import { generate, registrationText, type ArmSpec } from 'poisson-tasks';
import { FIXTURES, MAIN } from './helpers.js';

/** The package's folder: there 'poisson-prove' resolves to itself (its exports map). */
const PACKAGE = fileURLToPath(new URL('..', import.meta.url));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'prove-graph-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The packages (node_modules names) and the number of files a child process loaded. */
async function loaded(
  args: string[],
  name: string,
  status = 0,
  cwd = dir,
  form: 'modules' | 'script' = 'modules',
): Promise<{ packages: Set<string>; files: string[] }> {
  const out = join(dir, `${name}.txt`);
  // The ES module bundle: bin/poisson-prove.js falls back to it when the code cache it is told of is missing.
  const cache = form === 'modules' ? { POISSON_PROVE_CODE_CACHE: join(dir, 'no-such.cache') } : {};
  const r = spawnSync(process.execPath, ['--import', join(FIXTURES, 'loaded-modules.mjs'), ...args], {
    cwd,
    env: { ...process.env, ...cache, LOADED_MODULES_OUT: out },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(status);
  const files = (await readFile(out, 'utf8')).split('\n').filter((l) => l !== '');
  const packages = new Set(files.map((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f)?.[1]).filter((p): p is string => p !== undefined));
  return { packages, files };
}

/**
 * True when the process loaded the parquet libraries: hyparquet's own files, or the build's one-file bundle
 * of them (dist/vendor/parquet-libs.js), alone or inlined into a chunk of poisson-prove's bundle (esbuild
 * marks each inlined module with a `// <path>` comment).
 */
function parquetLibs(g: { packages: Set<string>; files: string[] }): boolean {
  if (g.packages.has('hyparquet') || g.packages.has('hyparquet-writer')) return true;
  return g.files.some(
    (f) =>
      f.endsWith('/packages/prove/dist/vendor/parquet-libs.js') ||
      (f.includes('/packages/prove/dist/bundle/') && readFileSync(f, 'utf8').includes('// packages/prove/dist/vendor/parquet-libs.js')),
  );
}

/** A sweep of poisson-tasks' reference target as the example runs one (one arm), into `store`: its CLI arguments. */
function referenceSweep(store: string): string[] {
  // The example's set-up, one arm: a registration, a registry module loading it under its sha256, a spec.
  const arm: ArmSpec = { knob: 'depth', level: 1, controlHistory: null, strictness: 'strict', split: 'eval', generatorVersion: '0' };
  const registration = join(dir, 'registration.toml');
  writeFileSync(
    registration,
    registrationText({ knob: 'depth', strictness: 'strict', split: 'eval', generatorVersion: '0', slack: 4, arms: [arm] }),
  );
  const sha256 = createHash('sha256').update(readFileSync(registration)).digest('hex');
  // The built adapter, as its package's exports name it outside the poisson-source condition (under vitest,
  // import.meta.resolve would give the TypeScript source).
  const tasksPkg = new URL('../../tasks/package.json', import.meta.url);
  const exportsMap = (JSON.parse(readFileSync(tasksPkg, 'utf8')) as { exports: Record<string, { default: string }> }).exports;
  const builtAdapter = new URL(exportsMap['./adapter']!.default, tasksPkg).href;
  const registry = join(dir, 'registry.mjs');
  writeFileSync(
    registry,
    `import { loadRegistry } from ${JSON.stringify(builtAdapter)};\n` +
      `export default loadRegistry(${JSON.stringify(registration)}, { sha256: ${JSON.stringify(sha256)} }).targets;\n`,
  );
  const spec = join(dir, 'sweep.toml');
  writeFileSync(
    spec,
    'target_id = "graph"\nt_unit = "turns"\nreplicates = 8\n' +
      '[axes.slack]\ntype = "continuous"\nvalues = [4]\n[axes.horizon]\ntype = "continuous"\nvalues = [6]\n' +
      '[axes.strictness]\ntype = "categorical"\nvalues = ["strict"]\n' +
      `[axes.generator_hash]\ntype = "categorical"\nvalues = ["${generate(arm, 0).generatorHash}"]\n`,
  );
  return [MAIN, '--store', store, 'sweep', spec, '--target', `${registry}:reference_depth_d1`, '--max-mde', '0.99', '--yes', '--json'];
}

describe('the module graph', () => {
  it("import('poisson-prove') loads neither bullmq nor ioredis", async () => {
    const g = await loaded(['--input-type=module', '-e', "await import('poisson-prove')"], 'import', 0, PACKAGE);
    // The list is real: it holds the package itself (the build's bundle) and the parquet libraries it
    // imports, bundled by the build (none of hyparquet's own 51 files).
    expect(g.files.some((f) => f.endsWith('/packages/prove/dist/bundle/index.js'))).toBe(true);
    expect(parquetLibs(g)).toBe(true);
    expect(g.packages.has('hyparquet')).toBe(false);
    expect(g.packages.has('hyparquet-writer')).toBe(false);
    expect(g.packages.has('bullmq')).toBe(false);
    expect(g.packages.has('ioredis')).toBe(false);
  });

  it('poisson-prove --help loads no queue, no Arrow, no parquet writer, no progress bar', async () => {
    const g = await loaded([MAIN, '--help'], 'help');
    expect(g.files.some((f) => f.endsWith('/packages/prove/dist/bundle/main.js'))).toBe(true);
    for (const p of ['bullmq', 'ioredis', 'apache-arrow', 'hyparquet-writer', 'cli-progress']) expect(g.packages.has(p), p).toBe(false);
    expect(parquetLibs(g)).toBe(false);
  });

  it('poisson-prove runs loads no queue, no Arrow, no parquet reader or writer', async () => {
    mkdirSync(join(dir, 'store'), { recursive: true }); // runs on a store that does not exist exits 2
    const g = await loaded([MAIN, '--store', join(dir, 'store'), 'runs'], 'runs');
    for (const p of ['bullmq', 'ioredis', 'apache-arrow', 'hyparquet', 'hyparquet-writer', 'cli-progress']) expect(g.packages.has(p), p).toBe(false);
    expect(parquetLibs(g)).toBe(false);
  });

  it('a bullmq worker does load the Redis client (the check sees a package when it is loaded)', async () => {
    // Nothing listens on port 1: the worker's first PING fails at once (exit 2), through ioredis.
    const g = await loaded([MAIN, 'worker', '--redis', 'redis://127.0.0.1:1'], 'worker', 2);
    expect(g.packages.has('ioredis')).toBe(true);
  });

  it("a sweep of poisson-tasks' reference target counts prompt tokens without loading gpt-tokenizer", async () => {
    const g = await loaded(referenceSweep(join(dir, 'sweep-store')), 'sweep');
    // The count happened: every episode's meta has its prompt tokens ...
    const rows = await episodes(join(dir, 'sweep-store'), '#1');
    expect(rows).toHaveLength(8);
    for (const row of rows) expect((JSON.parse(row.meta) as { prompt_tokens: unknown }).prompt_tokens).toBeGreaterThan(600);
    // ... from the rank table file (ranks and split pattern), without loading any of gpt-tokenizer's modules
    // (its 2.4 MB rank array and its encoder took ~150 ms).
    expect(g.files.filter((f) => f.includes('/gpt-tokenizer/'))).toEqual([]);
    // It wrote its parts through the bundled parquet libraries, not their 51 files.
    expect(parquetLibs(g)).toBe(true);
    expect(g.files.filter((f) => /node_modules\/hyparquet/.test(f))).toEqual([]);
    // poisson-prove, poisson-core, poisson-stats (the power gate) and poisson-tasks (the target) as the
    // build's bundles (dist/bundle/), not their ~260 modules.
    for (const pkg of ['prove', 'core', 'stats', 'tasks']) {
      const files = g.files.filter((f) => f.includes(`/packages/${pkg}/dist/`));
      expect(files.length, pkg).toBeGreaterThan(0);
      expect(files.filter((f) => !f.includes(`/packages/${pkg}/dist/bundle/`)), pkg).toEqual([]);
    }
  });
});

describe('the module graph of the CLI as one script (the build\'s code cache)', () => {
  it('--help loads none of bullmq, ioredis, Arrow, the parquet libraries or the progress bar, and none of the ES module bundle but its errors', async () => {
    const g = await loaded([MAIN, '--help'], 'script-help', 0, dir, 'script');
    for (const p of ['bullmq', 'ioredis', 'apache-arrow', 'hyparquet', 'hyparquet-writer', 'cli-progress']) expect(g.packages.has(p), p).toBe(false);
    // The CLI's code came from the script: of poisson-prove's files only the errors module (ProveError is
    // the library's class) and what it imports, no main.js and no verb's chunk.
    const prove = g.files.filter((f) => f.includes('/packages/prove/dist/'));
    expect(prove.some((f) => f.endsWith('/packages/prove/dist/bundle/errors.js'))).toBe(true);
    expect(prove.filter((f) => f.endsWith('/main.js') || f.endsWith('/index.js'))).toEqual([]);
    expect(prove.length).toBeLessThanOrEqual(3);
  });

  it("a sweep of poisson-tasks' reference target counts prompt tokens without gpt-tokenizer or the parquet libraries' files", async () => {
    const store = join(dir, 'script-sweep-store');
    const g = await loaded(referenceSweep(store), 'script-sweep', 0, dir, 'script');
    const rows = await episodes(store, '#1');
    expect(rows).toHaveLength(8);
    for (const row of rows) expect((JSON.parse(row.meta) as { prompt_tokens: unknown }).prompt_tokens).toBeGreaterThan(600);
    expect(g.files.filter((f) => f.includes('/gpt-tokenizer/'))).toEqual([]);
    expect(g.files.filter((f) => /node_modules\/(hyparquet|apache-arrow|bullmq|ioredis)/.test(f))).toEqual([]);
    expect(g.files.filter((f) => f.includes('/packages/prove/dist/') && f.endsWith('/main.js'))).toEqual([]);
    // The list holds the built-ins the process loaded (node:crypto hashes the parts), and not readline:
    // with --yes no question is asked. (worker_threads, loaded lazily too, cannot be seen here: the
    // helper's own resolve hook runs on a thread, which loads it first.)
    expect(g.files).toContain('node:crypto');
    expect(g.files.filter((f) => f === 'node:readline')).toEqual([]);
    // poisson-tasks (the target's registry) as its bundle, which loads poisson-core's.
    for (const pkg of ['core', 'tasks']) {
      const files = g.files.filter((f) => f.includes(`/packages/${pkg}/dist/`));
      expect(files.length, pkg).toBeGreaterThan(0);
      expect(files.filter((f) => !f.includes(`/packages/${pkg}/dist/bundle/`)), pkg).toEqual([]);
    }
  });
});
