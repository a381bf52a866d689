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
const PINNED: Record<string, { rows: string; parts: string[]; outcomes: Record<string, number> }> = {
  'slack4 reference_depth_d1': {
    rows: '9d8b556fb0a8365a352054b1c3b3b32248c47f4ff6bca2720321cc7bcc94aa35',
    parts: [
      'febbf3424b4f5e4d9c44b07322906d5278d8887b550389db6cb7b46b847e8786',
      '49395397314931cd5a6879f86ad948e5d5eea15d27dfc110c26962a45eb655e7',
      'cd7ca4f490aa400b81b0271934e19e499ec78668699a1a9813bf55359376988f',
    ],
    outcomes: { passed: 120 },
  },
  'slack4 reference_depth_d3': {
    rows: '60c33e29d68c4e3c1c452556aa2d5351baa9520b35513faf2f80813dc8f20e57',
    parts: [
      'de35bd931d4ee82024e6737cf598e275974d2a0f585b187d3c52ecc1b6298574',
      'bb6a669a50b3b22f5cd8828ee999ae40919b1ccb41a2668f1f2655a716cbb879',
      '7bf204a6f5582b7b8be7c716c603f7a676e2da6705e068b5a8b185b2931daabc',
    ],
    outcomes: { passed: 120 },
  },
  'slack4 reference_depth_d1_h3': {
    rows: '77d2cdf6008e4989af9cb68ce1c41b46b4d7a1323b5f532b696307a6bf588c49',
    parts: [
      'e2197d2f1f3c097405e37daa952d675123b6fea711a432b059e2dc63dca2ca88',
      'f89a990136671d0bdd2db907e751380bdeb40fccb54151745029c986fd7545d6',
      'ab647ace67d8f5653c9044302240f61edff83fc6d1cb105de13de618aee3b702',
    ],
    outcomes: { passed: 120 },
  },
  'slack4 per_call_depth_d3': {
    rows: '21634647d39936351e6b732c4af8f23c194f0b3c99fb6668046918a62b6cc8c7',
    parts: [
      'bb3d40bded7a225d2d860cf8d9e2da04479b3c9b1a3713e85c1782840a9c7241',
      '23ee184ea15064c0f1ce5f080a95d5ecb6fd4a6c8df0cf098701aabf684b7ce5',
      'c5396be8e7753f1016b71c74eb69e1c1a8476540fe72161836c34bb8696ef79e',
    ],
    outcomes: { failed: 64, passed: 56 },
  },
  'slack5 reference_depth_d3': {
    rows: '87be5fba66d9628edfbbca7e97d9c55429d7b9f5056ab09c93de3162ddf77622',
    parts: [
      '8dbd8e9eb45f84eb0313d6bc5d42f219701816fcf2489dfc9d6258ab4883c8b4',
      'b06d5dad70215ada30274c1d00eb8db04386171f1532cd00cb4b47380e83fe7e',
      'e683918d9ab8f2256563be7ca05deff9ce181f9de3651277069b4375da2cb93b',
    ],
    outcomes: { passed: 120 },
  },
  'slack5 per_call_depth_d1_h3': {
    rows: '94448d66cc1aa228bca8cc24e183202de5653a124e8720dfa3c1e0c47149158e',
    parts: [
      '6498ab8919d12d8505827bed0de0264420988ef5ed429e6e0535077ac9f66d3a',
      '40f216c3e2da2ced186a942ae7711bbf2a0254de26ed62a1d831559cc3645f3a',
      '133e09ab5acf00e6c89201aeaca94380b808863558de796c8f8bfa22e0510682',
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
