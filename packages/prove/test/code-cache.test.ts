// The CLI as one script compiled from the build's code cache (bin/poisson-prove.js, src/cli/code-cache.ts,
// scripts/bundle-dist.mjs): the cache the build wrote is taken by this Node, and a cache that is stale
// (another build's), damaged or missing changes nothing the CLI prints or writes. Uses the build (dist/).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { episodes } from 'poisson-prove';
import { FIXTURES, MAIN } from './helpers.js';

const BUNDLE = fileURLToPath(new URL('../dist/bundle/', import.meta.url));
const SCRIPT = join(BUNDLE, 'cli-script.js');
const dir = mkdtempSync(join(tmpdir(), 'prove-code-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The build's cache file for this Node, by the name the bin looks for. */
function buildCache(): string {
  const r = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `const { cacheFileName } = await import(${JSON.stringify(join(BUNDLE, 'code-cache.js'))}); console.log(cacheFileName(process.versions.v8, process.arch));`],
    { encoding: 'utf8' },
  );
  expect(r.status, r.stderr).toBe(0);
  return join(BUNDLE, r.stdout.trim());
}

/** Runs the CLI with POISSON_PROVE_CODE_CACHE naming `cache` (undefined: the build's own). */
function cli(args: string[], cache: string | undefined): { status: number | null; stdout: string; stderr: string } {
  const env = { ...process.env };
  delete env['POISSON_PROVE_CODE_CACHE'];
  if (cache !== undefined) env['POISSON_PROVE_CODE_CACHE'] = cache;
  const r = spawnSync(process.execPath, [MAIN, ...args], { cwd: dir, encoding: 'utf8', env });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("the CLI's code cache", () => {
  it('the build wrote a cache for this Node that V8 takes for the built script, in a fresh process', () => {
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { readFileSync } from 'node:fs';
         const { compileCliScript } = await import(${JSON.stringify(join(BUNDLE, 'code-cache.js'))});
         const s = compileCliScript(${JSON.stringify(SCRIPT)}, readFileSync(${JSON.stringify(SCRIPT)}, 'utf8'), readFileSync(${JSON.stringify(buildCache())}));
         console.log(String(s.rejected));`,
      ],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('false');
  });

  it('runs the script by default, and the ES module bundle under --enable-source-maps (whose stacks name src/)', () => {
    const store = join(dir, 'maps-store');
    const args = ['--debug', '--store', store, 'diff', '#1', '#2'];
    expect(cli(['--store', store, 'sweep', join(FIXTURES, 'spec.toml'), '--target', `${join(FIXTURES, 'targets.mjs')}:coin`, '--max-mde', '0.99', '--yes'], undefined).status).toBe(0);
    const env = { ...process.env };
    delete env['POISSON_PROVE_CODE_CACHE'];
    const plain = spawnSync(process.execPath, [MAIN, ...args], { cwd: dir, encoding: 'utf8', env });
    const mapped = spawnSync(process.execPath, ['--enable-source-maps', MAIN, ...args], { cwd: dir, encoding: 'utf8', env });
    expect([plain.status, mapped.status]).toEqual([2, 2]);
    expect(plain.stderr).toContain('/dist/bundle/cli-script.js:');
    expect(mapped.stderr).toMatch(/\/src\/store\/resolve-run\.ts:\d+/);
    expect(mapped.stderr.split('\n')[0]).toBe(plain.stderr.split('\n')[0]);
  });

  it('a stale, damaged or missing cache changes nothing the CLI prints, writes or exits with', async () => {
    const good = readFileSync(buildCache());
    // Another build's cache: the script's id differs (V8 alone would take it, the length being the same).
    const stale = Buffer.from(good);
    stale.write('0'.repeat(64), 0, 'latin1');
    const damaged = Buffer.from(good);
    for (let i = 200; i < damaged.length; i += 97) damaged[i] = (damaged[i] ?? 0) ^ 0xff;
    writeFileSync(join(dir, 'stale.cache'), stale);
    writeFileSync(join(dir, 'damaged.cache'), damaged);
    const forms: [string, string | undefined][] = [
      ['the build cache', undefined],
      ['stale', join(dir, 'stale.cache')],
      ['damaged', join(dir, 'damaged.cache')],
      ['missing (the ES module bundle)', join(dir, 'missing.cache')],
    ];
    const seen = await Promise.all(forms.map(async ([form, cache]) => {
      const store = join(dir, `store-${forms.findIndex(([f]) => f === form)}`);
      const sweep = (target: string) =>
        cli(['--store', store, 'sweep', join(FIXTURES, 'spec.toml'), '--target', `${join(FIXTURES, 'targets.mjs')}:${target}`, '--max-mde', '0.99', '--salt', '0123456789abcdef', '--yes', '--json'], cache);
      const a = sweep('coin');
      const b = sweep('pinned');
      expect([a.status, b.status], `${form}: ${a.stderr}${b.stderr}`).toEqual([0, 0]);
      const diff = cli(['--store', store, 'diff', '#1', '#2', '--json'], cache);
      const help = cli(['--help'], cache);
      const bad = cli(['--store', store, 'diff', '#1', '#9'], cache); // a ProveError: exit 2, one line
      const strip = (s: string) => s.replaceAll(store, 'STORE').replace(/20\d{6}T\d{6}Z-[0-9a-f]{4}/g, 'RUN').replace(/"(created|started|finished|updated)_at": "[^"]*"/g, '"$1_at": "T"');
      return {
        form,
        diff: [diff.status, strip(diff.stdout), diff.stderr],
        episodes: await Promise.all(['#1', '#2'].map(async (run) => (await episodes(store, run)).map((e) => [e.condition, e.replicate_index, e.seed, e.outcome, e.t]))),
        sweeps: [a, b].map((r) => (JSON.parse(r.stdout) as { status: string; replicates: number }).status),
        help: [help.status, help.stdout, help.stderr],
        bad: [bad.status, bad.stdout, strip(bad.stderr)],
      };
    }));
    const [first, ...rest] = seen;
    expect(first!.diff[0]).toBe(0);
    expect(first!.bad[0]).toBe(2);
    expect(first!.sweeps).toEqual(['complete', 'complete']);
    expect(first!.episodes[0]).toHaveLength(16);
    for (const s of rest) expect({ ...s, form: first!.form }, s.form).toEqual(first);
  });
});
