// Imported runs read as columns pair exactly as they pair as rows: alignColumnsByIdentity against
// alignByIdentity (pairing.ts) on runs given in memory (shuffled samples, a changed input, samples in
// one run only, a sample held twice), and readReportRuns reads imports as columns (before this change
// it read them as rows, one object per episode).
import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identitySeed } from '../import/identity.js';
import { makeTruth, writeLmEval } from '../import/__fixtures__/harness-gen.js';
import { importRun } from '../import/import-run.js';
import { tempStore } from './__fixtures__/build-run.js';
import { diffColumns } from './diff-columns.js';
import { diffEpisodes } from './diff-episodes.js';
import { alignColumnsByIdentity } from './identity-columns.js';
import { alignByIdentity } from './pairing.js';
import { columnsUnmatched, unmatchedPairs } from './partial.js';
import { readReportRuns } from './report-grid.js';
import { readRunForDiff } from './read-run.js';
import { columnsOfRows, type RunColumns } from './run-columns.js';
import { outcomeCodes, type OutcomeCodes } from './run-index.js';
import type { DiffEpisode, DiffManifest, DiffRun } from './types.js';

function manifest(name: string): DiffManifest {
  return { run_id: name, name, salt: 'import:inspect', max_mde: 0.1, axes: { task: { type: 'categorical', values: ['t', 'u'] } }, conditions: ['task t', 'task u'], import: { pairing: 'identity' } };
}

type S = { id: number; task?: string; outcome: string | null; input?: string; r?: number };

function run(name: string, samples: readonly S[]): DiffRun {
  const rows: DiffEpisode[] = samples.map((s, k) => ({
    condition: `task ${s.task ?? 't'}`,
    task: s.task ?? 't',
    replicate_index: s.r ?? k,
    seed: identitySeed('inspect', `id ${s.id} epoch 1`),
    outcome: s.outcome,
    t: k / 4,
    score: s.id % 3 === 0 ? null : s.id / 10,
    hard_failure: s.id % 5 === 0 ? true : null,
    identity: `id ${s.id} epoch 1`,
    input_hash: s.input ?? `h${s.id}`,
  }));
  return { manifest: manifest(name), rows };
}

/** A run given as rows, as columns with its identities (what readIdentities reads from a store). */
function columns(r: DiffRun, codes: OutcomeCodes): RunColumns {
  return { ...columnsOfRows(r, codes, ['task']), identities: { identity: r.rows.map((e) => e.identity ?? null), inputHash: r.rows.map((e) => e.input_hash ?? null) } };
}

/** Each episode as the diff reads it: condition, replicate, seed, outcome, score, hard flag. */
function episodes(c: RunColumns): unknown[] {
  return Array.from({ length: c.length }, (_, i) => [c.conditions[c.condition[i] as number], c.replicate[i], c.seed?.[i], c.codes.labels[(c.outcome[i] as number) - 2] ?? null, c.score[i], c.hard?.[i]]);
}

const before = run('A', [
  ...Array.from({ length: 12 }, (_, i) => ({ id: i + 1, outcome: i < 6 ? 'failed' : 'passed', r: 11 - i })),
  { id: 40, task: 'u', outcome: null },
  { id: 41, task: 'u', outcome: 'failed' },
]);
const after = run('B', [
  ...[13, 11, 9, 7, 5, 3, 1, 2, 4, 6, 8, 10].map((id) => ({ id, outcome: id <= 3 || id === 8 ? 'failed' : 'passed', ...(id === 4 || id === 9 ? { input: `changed${id}` } : {}) })),
  { id: 41, task: 'u', outcome: 'passed' },
  { id: 42, task: 'u', outcome: 'failed' },
]);

describe('alignColumnsByIdentity', () => {
  it('aligns as alignByIdentity does: the same episodes in the same order, renumbered alike, the same identity pairing', () => {
    const rows = alignByIdentity(before, after);
    const codes = outcomeCodes();
    const cols = alignColumnsByIdentity(columns(before, codes), columns(after, codes));
    expect(cols).not.toBeNull();
    expect(cols?.identity).toEqual(rows.identity);
    expect(cols?.identity.input_mismatches.map((m) => m.sample)).toEqual(['id 9 epoch 1', 'id 4 epoch 1']);
    const codes2 = outcomeCodes();
    expect(episodes(cols!.before)).toEqual(episodes(columnsOfRows(rows.before, codes2, ['task'])));
    expect(episodes(cols!.after)).toEqual(episodes(columnsOfRows(rows.after, codes2, ['task'])));
    expect(cols?.before.manifest['aligned_by_identity']).toBe(true);
    // Aligned runs are not aligned again.
    expect(alignColumnsByIdentity(cols!.before, cols!.after)).toBeNull();
  });

  it('gives the diff the report diffEpisodes gives from the rows, and the unmatched pairs of the stored indices', () => {
    const codes = outcomeCodes();
    const [a, b] = [columns(before, codes), columns(after, codes)];
    for (const options of [{ events: ['failed'], full: true }, { scores: true, method: 'midp' as const }]) {
      expect(JSON.parse(JSON.stringify(diffColumns(a, b, options)))).toEqual(JSON.parse(JSON.stringify(diffEpisodes(before, after, options))));
    }
    expect(columnsUnmatched(a, b)).toEqual(unmatchedPairs(before, after));
  });

  it('refuses a sample held twice in a condition with the words alignByIdentity uses', () => {
    const twice = run('A', [{ id: 1, outcome: 'passed' }, { id: 2, outcome: 'failed' }, { id: 1, outcome: 'failed' }]);
    const codes = outcomeCodes();
    expect(() => alignByIdentity(twice, after)).toThrow(/holds sample id 1 epoch 1 twice in task t/);
    expect(() => alignColumnsByIdentity(columns(twice, codes), columns(after, codes))).toThrow(/^Run A \(before\) holds sample id 1 epoch 1 twice in task t; an import holds each sample once: import the file again\.$/);
  });

  it('leaves runs that are not both imports as they are, and asks for identities when they are', () => {
    const codes = outcomeCodes();
    const plain = { ...before, manifest: { ...before.manifest, import: undefined } };
    expect(alignColumnsByIdentity(columns(plain, codes), columns(after, codes))).toBeNull();
    expect(() => alignColumnsByIdentity(columnsOfRows(before, codes, ['task']), columns(after, codes))).toThrow(TypeError);
  });
});

describe('readReportRuns on imports', () => {
  let dir: string;
  let store: string;
  let ids: [string, string];
  beforeAll(async () => {
    dir = await tempStore();
    store = join(dir, 'store');
    const truth = makeTruth(30, 3);
    const a = await importRun(store, { format: 'lm-eval', files: await writeLmEval(`${store}-a`, truth, 0) });
    const b = await importRun(store, { format: 'lm-eval', files: await writeLmEval(`${store}-b`, truth, 1) });
    ids = [a.runs[0]?.run_id as string, b.runs[0]?.run_id as string];
  }, 60_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads them as columns with the identity and input hash of meta, no row object per episode', async () => {
    const [a, b] = await readReportRuns(store, ids);
    const rows = await readRunForDiff(store, ids[0]);
    for (const r of [a, b]) {
      expect(r).not.toHaveProperty('rows');
      expect(r?.condition).toBeInstanceOf(Uint32Array);
      expect(r?.seed).toBeInstanceOf(Float64Array);
    }
    expect(a?.identities?.identity).toEqual(rows.rows.map((e) => e.identity));
    expect(a?.identities?.inputHash).toEqual(rows.rows.map((e) => e.input_hash));
  });
});
