// The rows a seeded sweep of poisson-tasks' registry targets stores, pinned: the seed, outcome, t and the
// meta (with its pin and prompt_tokens) of every episode, and the bytes of the parquet parts they make.
// The hashes were taken on the code before the per-target constants of issue 13 (createTarget's meta and
// pin check, the executor's rows) and must not move: a sweep of the same registration on the same salt
// stores the same bytes.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, generatorHash, promptTokens, registrationText, type ArmSpec } from 'poisson-tasks';
import { loadRegistry, perCallNoisyPolicy, type Registry } from 'poisson-tasks/adapter';
import { removeDir, tempDir } from '../__fixtures__/helpers.js';
import { axisTypes } from '../store/episode-schema.js';
import type { EpisodeRow } from '../store/episode-row.js';
import { partColumnData } from '../store/parquet.js';
import { encodePart } from '../store/part-encoder.js';
import { episodes } from '../store/read-episodes.js';
import type { Target } from '../target/target.js';
import { readManifest } from '../store/manifest.js';
import { extend } from './resume.js';
import { sweep } from './sweep.js';

const TASKS_VERSION = (JSON.parse(readFileSync(new URL('../../../tasks/package.json', import.meta.url), 'utf8')) as { version: string }).version;
const SALT = '13f0c0ffee';
const REPLICATES = 60;
const PART_ROWS = 50;

let dir: string;
/** Two registrations that differ in their slack (so in their sha256 and horizon). */
const registries: Record<string, Registry> = {};
beforeAll(async () => {
  dir = await tempDir();
  for (const slack of [4, 5]) {
    const text = registrationText({ knob: 'depth', strictness: 'strict', split: 'eval', generatorVersion: '0', slack, arms: ['depth:d1', 'depth:d3', 'depth:d1+h3'] });
    const file = join(dir, `registration-${slack}.toml`);
    await writeFile(file, text);
    const sha256 = createHash('sha256').update(text).digest('hex');
    registries[`slack${slack}`] = loadRegistry(file, { sha256, policies: [perCallNoisyPolicy({ e: 0.3 })] });
  }
});
afterAll(async () => {
  await removeDir(dir);
});

/** The sweep spec of a registry: its pinned axes, and an axis the target ignores (two conditions). */
function specOf(r: Registry): string {
  return [
    `target_id = "pinned"\nt_unit = "turns"\nreplicates = ${REPLICATES}`,
    `[axes.slack]\ntype = "continuous"\nvalues = [${r.slack}]`,
    `[axes.horizon]\ntype = "continuous"\nvalues = [${r.horizon}]`,
    `[axes.strictness]\ntype = "categorical"\nvalues = ["strict"]`,
    `[axes.generator_hash]\ntype = "categorical"\nvalues = ["${r.generatorHash}"]`,
    `[axes.note]\ntype = "categorical"\nvalues = ["a", "b"]`,
    '',
  ].join('\n');
}

const sha = (s: string | Uint8Array): string => createHash('sha256').update(s).digest('hex');

/** What a row holds that does not depend on the clock or the run: everything but run_id and duration_ms. */
function rowsDigest(rows: readonly EpisodeRow[]): string {
  return sha(rows.map(({ run_id: _r, duration_ms: _d, ...rest }) => JSON.stringify(rest)).join('\n'));
}

/** The sha256 of each part the rows make, re-encoded with the run id and the durations fixed (they vary per run). */
async function partDigests(rows: readonly EpisodeRow[], sizes: readonly number[], axes: ReturnType<typeof axisTypes>): Promise<string[]> {
  const fixed = rows.map((r) => ({ ...r, run_id: '20261203T000000Z-0000', duration_ms: 0 }));
  const out: string[] = [];
  let at = 0;
  for (const n of sizes) {
    const part = fixed.slice(at, at + n);
    at += n;
    out.push((await encodePart(partColumnData(axes, part), part.length, { thread: false })).sha256);
  }
  return out;
}

async function sweepOf(registry: string, name: string): Promise<{ rows: EpisodeRow[]; parts: string[]; runId: string }> {
  const r = registries[registry] as Registry;
  const target = r.targets[name] as Target;
  const store = join(dir, `store-${registry}-${name}`);
  const run = await sweep({ spec: specOf(r), target, store, salt: SALT, maxMde: 0.99, partRows: PART_ROWS, backend: 'local', concurrency: 1 });
  expect(run.status).toBe('complete');
  const rows = await episodes(store, run.run_id);
  expect(rows.every((x) => x.run_id === run.run_id)).toBe(true);
  // Stored in the order of the work items (concurrency 1): replicate-major, the conditions in order.
  expect(rows.map((x) => `${x.replicate_index} ${String(x['note'])}`)).toEqual(Array.from({ length: 2 * REPLICATES }, (_, i) => `${i >> 1} ${i % 2 === 0 ? 'a' : 'b'}`));
  const sizes = (run.parts ?? []).map((p) => p.rows);
  expect(sizes.reduce((a, b) => a + b, 0)).toBe(2 * REPLICATES);
  return { rows, parts: await partDigests(rows, sizes, axisTypes(run.axes)), runId: run.run_id };
}

// Taken on the code before issue 13's per-target constants (commit 6a75b50).
// The parts' hashes re-pinned when parts began to keep 64 characters of a string's statistics (16
// before): with 16 they are the hashes taken then; only the footer's min/max differ.
const PINNED: Record<string, { rows: string; parts: string[]; outcomes: Record<string, number> }> = {
  'slack4 reference_depth_d1': {
    rows: '9d8b556fb0a8365a352054b1c3b3b32248c47f4ff6bca2720321cc7bcc94aa35',
    parts: [
      'bbf2ba80580e57104a945b9d388941d353cc1ed3f8b31125c4a8fbc027666c7c',
      '9a3e323a44689027dce8d46182cfcd52feadfd2edaacf6dbc257264a131649c1',
      '5ca0cb5159a7b2d69b46a25a87eb9233597d19c836ad26010ca1417d76b6003a',
    ],
    outcomes: { passed: 120 },
  },
  'slack4 reference_depth_d3': {
    rows: '60c33e29d68c4e3c1c452556aa2d5351baa9520b35513faf2f80813dc8f20e57',
    parts: [
      '44baaa68a31d028985d8f61afdcc96abedbdc0975e516ebe6bce5aa85b8cddfb',
      'caa7aedfc2d5fcb3ecb6c5e19b590b14b7ca2882f92ce0afaccea8181bdfae0c',
      'd17adf062de0dd9f61c7fad959bdd42c7b8d9f313d4460ababcbfcdef310b079',
    ],
    outcomes: { passed: 120 },
  },
  'slack4 reference_depth_d1_h3': {
    rows: '77d2cdf6008e4989af9cb68ce1c41b46b4d7a1323b5f532b696307a6bf588c49',
    parts: [
      '27c947a88309827947ffb89c5850c0b08dad069a26a1e9685f2cc995bf85a0b1',
      'de3749841e173a20822bfebc58f1f48660f6a6fe66e81d06025ed7549a279460',
      'fae69b316f02f5d317fbb8a169e6b444aa680e7a9b33a2d15ddb063c6ba552fd',
    ],
    outcomes: { passed: 120 },
  },
  'slack4 per_call_depth_d3': {
    rows: '21634647d39936351e6b732c4af8f23c194f0b3c99fb6668046918a62b6cc8c7',
    parts: [
      '4af6d2013f2e0f6a0406b13aee6bba9f5825bfd7e103deaf478f6a27f2330e86',
      '30aa7ab7991d5b9ac66753ab1565e017751e002b466cf74ed2e89e2f8c82657b',
      '95abad9c1f75fc1a80a1dba3b8bbe053f12d8a347ddcbb9055507cea85f78ab6',
    ],
    outcomes: { failed: 64, passed: 56 },
  },
  'slack5 reference_depth_d3': {
    rows: '87be5fba66d9628edfbbca7e97d9c55429d7b9f5056ab09c93de3162ddf77622',
    parts: [
      'b5dd46ff4f7997f8a0949c96e23d00e5bf13a1ca8bd2b6ddf148a7467d3b1571',
      '13d49ab73269f1e8364c30f4bd7f68eb61761aef12f6f0d03d5288f92495435b',
      '82d4af69ffaf5478d26c30e98033de99b59eee7985b736d3bcab6e13b7efa25a',
    ],
    outcomes: { passed: 120 },
  },
  'slack5 per_call_depth_d1_h3': {
    rows: '94448d66cc1aa228bca8cc24e183202de5653a124e8720dfa3c1e0c47149158e',
    parts: [
      '31ac34705010710f67b7bc616f58fa66f6eb984fabfdda21a87dc93652d709d1',
      'b279c02e11068c6babbdee679fe4fd7a6909b62fe211aac99098391dbf2de5ab',
      '45d4b0e99cc0e65b2f9760fefeabe0b55db107a89eff7b064a35adc11a0b2621',
    ],
    outcomes: { failed: 32, passed: 88 },
  },
};

const CASES = [
  ['slack4', 'reference_depth_d1'],
  ['slack4', 'reference_depth_d3'],
  ['slack4', 'reference_depth_d1_h3'],
  ['slack4', 'per_call_depth_d3'],
  ['slack5', 'reference_depth_d3'],
  ['slack5', 'per_call_depth_d1_h3'],
] as const;

describe('a seeded sweep of the registry targets stores the same rows and parts', () => {
  it.each(CASES)('%s %s', async (registry, name) => {
    const { rows, parts } = await sweepOf(registry, name);
    const outcomes: Record<string, number> = {};
    for (const r of rows) outcomes[String(r.outcome)] = (outcomes[String(r.outcome)] ?? 0) + 1;
    expect({ rows: rowsDigest(rows), parts, outcomes }).toEqual(PINNED[`${registry} ${name}`]);
  });

  it('each row carries its own arm, registration and the prompt tokens of its own seed', async () => {
    const { rows } = await sweepOf('slack5', 'per_call_depth_d1_h3');
    const r = registries['slack5'] as Registry;
    const arm = r.arms.find((a) => a.controlHistory === 3) as ArmSpec;
    for (const row of rows) {
      const meta = JSON.parse(row.meta) as { arm_id: string; task_id: string; prompt_tokens: number; pin: Record<string, string> };
      const task = generate(arm, row.seed);
      expect(meta.arm_id).toBe('depth:d1+h3');
      expect(meta.task_id).toBe(task.taskId);
      expect(meta.prompt_tokens).toBe(promptTokens(task));
      expect(meta.pin).toEqual({ generator_version: '0', generator_hash: generatorHash('0'), registration_sha256: r.sha256, package_version: TASKS_VERSION });
    }
  });
});

// A review of the sixth session of 2026-12-06: a registration edited to add arms (its pins the same, so
// every episode plays) was found only when extend wrote its first part, after the episodes were played; the
// run was then left failed with a replicate count it did not hold. The target now declares its registration.
describe('extend under another registration of the same pins', () => {
  it('is refused before an episode is played: the run stays complete, with its rows', async () => {
    const text = registrationText({ knob: 'depth', strictness: 'strict', split: 'eval', generatorVersion: '0', slack: 4, arms: ['depth:d1', 'depth:d2', 'depth:d3', 'depth:d1+h2', 'depth:d1+h3'] });
    const file = join(dir, 'registration-wider.toml');
    await writeFile(file, text);
    const wider = loadRegistry(file, { sha256: sha(text) });
    const r = registries['slack4'] as Registry;
    expect([wider.slack, wider.horizon]).toEqual([r.slack, r.horizon]);
    const store = join(dir, 'store-wider');
    const run = await sweep({ spec: specOf(r), target: r.targets['reference_depth_d1'] as Target, store, salt: SALT, maxMde: 0.99, backend: 'local', concurrency: 1 });
    expect(run.registration_sha256).toBe(r.sha256);
    const other = wider.targets['reference_depth_d1'] as Target;
    expect(other.registrationSha256).toBe(wider.sha256);
    let played = 0;
    const counted = Object.assign(async (cfg: Parameters<Target>[0]) => {
      played++;
      return other(cfg);
    }, { registrationSha256: other.registrationSha256 });
    Object.defineProperty(counted, 'name', { value: other.name });
    const err = await extend({ store, ref: run.run_id, target: counted, replicates: 4 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_RESUME' });
    expect((err as Error).message).toContain(`holds episodes of the registration ${r.sha256.slice(0, 12)}…, and the target now runs ${wider.sha256.slice(0, 12)}…`);
    expect(played).toBe(0);
    const after = await readManifest(store, run.run_id);
    expect([after.status, after.replicates, after.extensions]).toEqual(['complete', REPLICATES, []]);
    expect(await episodes(store, run.run_id)).toHaveLength(2 * REPLICATES);
  });
});
