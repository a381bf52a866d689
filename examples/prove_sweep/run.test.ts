// The acceptance test of the whole (../shared/seeds/001_8e0b1e44aad99124.txt): the scripted path, run as a
// user runs it — `tsx examples/prove_sweep/run.ts` in a subprocess against the built packages — on a
// temporary store, then the store it wrote read back through the CLI and through DuckDB.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const CLI = join(ROOT, 'packages', 'prove', 'dist', 'cli', 'main.js');
const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');

let dir: string;
let out: string;
let status: number | null;

function prove(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const done = spawnSync(process.execPath, [CLI, '--store', join(dir, 'runs'), ...args], { encoding: 'utf8' });
  return { status: done.status, stdout: done.stdout, stderr: done.stderr };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'poisson-scripted-path-'));
  const done = spawnSync(process.execPath, [TSX, join(HERE, 'run.ts'), '--store', dir], {
    encoding: 'utf8',
    cwd: ROOT,
  });
  status = done.status;
  out = done.stdout + (done.status === 0 ? '' : `\n--- stderr\n${done.stderr}`);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the scripted path (examples/prove_sweep/run.ts)', () => {
  it('runs to completion', () => {
    expect(out).toContain('the store is at');
    expect(status).toBe(0);
  });

  it('writes the seed registration, whose horizon is 8 and whose targets are the three arms', () => {
    expect(out).toContain(
      [
        '  knob = "depth"',
        '  strictness = "strict"',
        '  split = "eval"',
        '  generator_version = "0"',
        '  slack = 4',
        '  horizon = 8',
        '  arms = ["depth:d1", "depth:d3", "depth:d1+h3"]',
      ].join('\n'),
    );
    expect(out).toContain('registry: slack 4, horizon 8');
    expect(out).toContain('targets: reference_depth_d1, reference_depth_d1_h3, reference_depth_d3');
  });

  it('sweeps 8 episodes per arm, all passed, with t 2.0 / 4.0 / 2.0 and 1 / 3 / 1 calls on the same seeds', () => {
    const blocks = out.split('--- poisson-prove sweep').slice(1);
    expect(blocks).toHaveLength(3);
    const expected = [
      { arm: 'depth:d1', t: '2.0', calls: 1 },
      { arm: 'depth:d3', t: '4.0', calls: 3 },
      { arm: 'depth:d1+h3', t: '2.0', calls: 1 },
    ];
    const seedLists: string[][] = [];
    blocks.forEach((block, i) => {
      const want = expected[i]!;
      expect(block).toContain('episodes 8  outcomes {"passed":8}');
      const lines = block.split('\n').filter((l) => l.trimStart().startsWith('seed '));
      expect(lines).toHaveLength(3);
      for (const line of lines) {
        expect(line).toContain(`t=${want.t}  passed`);
        expect(line).toContain(`arm ${want.arm}  ${want.calls} calls`);
      }
      seedLists.push(lines.map((l) => l.trim().split(/\s+/)[1]!));
    });
    // Paired at sweep time: every run of one salt uses the same seed for the same replicate.
    expect(seedLists[1]).toEqual(seedLists[0]);
    expect(seedLists[2]).toEqual(seedLists[0]);
    // seed(salt, r) = first 4 bytes of sha256("<salt>:<r>"), big-endian (python3 hashlib).
    expect(seedLists[0]).toEqual(['638467426', '887683062', '995466923']);
  });

  it('reads the diff of d1 against d3: no significant change, limit 0.801 against 0.990, truncated 0', () => {
    const verdictLine = out.split('\n').find((l) => l.startsWith('  no significant change'));
    expect(verdictLine).toBe(
      '  no significant change  every condition that did not count could have shown a change of 0.990: ' +
        'the largest limit it read is 0.801 (the paired test (McNemar), Holm q 0.05 over 1 tests, 4 times in 5); ' +
        'passed: 0 lower, 0 higher (paired test on shared seeds)',
    );
    expect(out).toContain('  truncated 0  (episodes the horizon cut short)');
  });

  it('prints every line the README quotes from it, in that order', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = /The example prints, among the rest[^]*?\n```\n([^]*?)\n```/.exec(readme)?.[1];
    expect(block, 'the README quotes the example').toBeDefined();
    const lines = out.split('\n');
    let at = 0;
    for (const quoted of block!.split('\n').filter((l) => l !== '[…]')) {
      const found = lines.indexOf(quoted, at);
      expect(found, `README line not printed (in this order) by the example: ${quoted}`).toBeGreaterThanOrEqual(0);
      at = found + 1;
    }
  });

  it('leaves an ordinary store: runs lists a, b, c newest first and #3 is the oldest', () => {
    const runs = prove('runs', '--json');
    expect(runs.status).toBe(0);
    const rows = (JSON.parse(runs.stdout) as { runs: { name: string; run_id: string; status: string }[] }).runs;
    const day = new Date().toISOString().slice(0, 10);
    expect(rows.map((r) => r.name)).toEqual(
      ['c', 'b', 'a'].map((l) => `poisson-tasks-example ${day} ${l}`),
    );
    expect(rows.every((r) => r.status === 'complete')).toBe(true);
    const third = prove('inspect', '#3', '--json');
    expect(third.status).toBe(0);
    expect(JSON.stringify(JSON.parse(third.stdout))).toContain(rows[2]!.run_id);
  });

  it('is reachable as the installed `poisson-prove` command (node_modules/.bin), as the docs say', () => {
    const bin = join(ROOT, 'node_modules', '.bin', 'poisson-prove');
    const done = spawnSync(bin, ['--store', join(dir, 'runs'), 'runs'], { encoding: 'utf8' });
    expect(done.stderr).toBe('');
    expect(done.status).toBe(0);
    expect(done.stdout).toMatch(/^ok 3 runs in /);
  });

  it('prints the seed report for diff "#3" "#2" --event passed', () => {
    const diff = prove('diff', '#3', '#2', '--event', 'passed');
    expect(diff.status).toBe(0);
    const text = diff.stdout;
    expect(text).toMatch(/^no significant change/);
    expect(text).toContain('threshold');
    expect(text).toContain('0.990');
    expect(text).toMatch(/fragility\s+2 outcomes would change the word: 2 runs of A in .* that ended in passed made to end otherwise/);
    // +-0.32441, printed rounded outward (docs/diff.md, "intervals")
    expect(text).toMatch(/passed\s+1\.000\s+1\.000\s+0\.000\s+\[-0\.325, \+0\.325\]\s+unchanged\s+no room\s+0\.801/);
    expect(text).toContain('Tango at 95%, simultaneous (Bonferroni) over the 1 tests');
  });

  it('writes parts that DuckDB reads with the documented columns and types', async () => {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const runs = readdirSync(join(dir, 'runs')).filter((f) => /^\d{8}T\d{6}Z-[0-9a-f]{4}$/.test(f));
    expect(runs).toHaveLength(3);
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const seedsByRun: string[][] = [];
    for (const run of runs) {
      const glob = join(dir, 'runs', run, 'episodes', 'part-*.parquet');
      const described = await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${glob}')`);
      const types = Object.fromEntries(described.getRows().map((r) => [String(r[0]), String(r[1])]));
      expect(types).toMatchObject({
        run_id: 'VARCHAR',
        condition: 'VARCHAR',
        replicate_index: 'INTEGER',
        seed: 'BIGINT',
        outcome: 'VARCHAR',
        t: 'DOUBLE',
        score: 'DOUBLE',
        error: 'VARCHAR',
        meta: 'VARCHAR',
        duration_ms: 'DOUBLE',
        slack: 'DOUBLE',
        horizon: 'DOUBLE',
        strictness: 'VARCHAR',
        generator_hash: 'VARCHAR',
      });
      const rows = await con.runAndReadAll(
        `SELECT count(*), count(DISTINCT replicate_index), min(outcome), max(outcome), any_value(meta) FROM read_parquet('${glob}')`,
      );
      const [count, distinct, minOutcome, maxOutcome, meta] = rows.getRows()[0]!;
      expect(Number(count)).toBe(8);
      expect(Number(distinct)).toBe(8);
      expect([minOutcome, maxOutcome]).toEqual(['passed', 'passed']);
      const parsed = JSON.parse(String(meta)) as { pin: { registration_sha256: string } };
      expect(parsed.pin.registration_sha256).toMatch(/^[0-9a-f]{64}$/);
      // Every one of the 8 episodes, not only the 3 the script prints: t and calls per arm, and the seeds.
      const all = await con.runAndReadAll(
        `SELECT replicate_index, seed, t, outcome, json_extract_string(meta, '$.arm_id'), json_extract(meta, '$.sampled_calls')::INTEGER ` +
          `FROM read_parquet('${glob}') ORDER BY replicate_index`,
      );
      const episodeRows = all.getRows();
      const arm = String(episodeRows[0]![4]);
      const want = { 'depth:d1': [2, 1], 'depth:d3': [4, 3], 'depth:d1+h3': [2, 1] }[arm];
      expect(want, `unexpected arm ${arm}`).toBeDefined();
      for (const row of episodeRows) {
        expect([Number(row[2]), row[3], String(row[4]), Number(row[5])]).toEqual([want![0], 'passed', arm, want![1]]);
      }
      seedsByRun.push(episodeRows.map((r) => String(r[1])));
    }
    expect(seedsByRun[1]).toEqual(seedsByRun[0]);
    expect(seedsByRun[2]).toEqual(seedsByRun[0]);
  });
});
