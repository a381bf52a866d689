// Outcome labels that are names of Object.prototype's members (a review, 2026-12-06): the counts were
// plain `{}` maps written `counts[label] = (counts[label] ?? 0) + 1`, so `__proto__` episodes vanished
// from run.json and inspect (the assignment set the map's prototype), and `constructor` or `toString`
// read Object's function and wrote its text as a count ("function Object() { [native code] }1"), a
// run.json every reader then refused as damaged. An outcome label is any one-line text.
import { seedFor } from 'poisson-core';
import { describe, expect, it } from 'vitest';
import { parseSweepSpec } from '../spec/sweep-spec.js';
import { SPEC, eachTempDir } from '../__fixtures__/helpers.js';
import { createRun } from './create-run.js';
import type { EpisodeRow } from './episode-row.js';
import { inspectRun } from './inspect-run.js';
import { listRuns } from './list-runs.js';
import { countRow, emptyCounts, readManifest, type RunCounts } from './manifest.js';
import { manifestShapeProblem } from './manifest-shape.js';
import { countsProblems } from './verify-parts.js';
import { verifyRun } from './verify-run.js';

const temp = eachTempDir();

/** Names Object.prototype holds: read from a plain `{}` they are never undefined (`__proto__` is a setter too). */
const MEMBER_LABELS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'] as const;

/** A record's own entries, sorted (a label that is a prototype member's name cannot hide in them). */
const entries = (o: object): [string, unknown][] => Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** The entries `[label, count]` of a list of outcomes (nulls left out), sorted. */
function expected(outcomes: readonly (string | null)[]): [string, number][] {
  const m = new Map<string, number>();
  for (const o of outcomes) if (o !== null) m.set(o, (m.get(o) ?? 0) + 1);
  return [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

describe('countRow and emptyCounts with outcome labels named like Object.prototype members', () => {
  it('counts each label as its own key, and JSON writes and reads them back', () => {
    const counts = emptyCounts();
    const outcomes = [...MEMBER_LABELS, ...MEMBER_LABELS, '__proto__', 'passed', null];
    for (const o of outcomes) countRow(counts, o);
    expect(counts.rows).toBe(outcomes.length);
    expect(counts.rows_without_outcome).toBe(1);
    expect(entries(counts.outcomes)).toEqual(expected(outcomes));
    const back = JSON.parse(JSON.stringify(counts)) as RunCounts;
    expect(entries(back.outcomes)).toEqual(expected(outcomes));
  });

  it('countRow on counts read from JSON (an own `__proto__` key) adds to that key', () => {
    const counts = JSON.parse('{"rows":1,"rows_without_outcome":0,"outcomes":{"__proto__":1}}') as RunCounts;
    countRow(counts, '__proto__');
    countRow(counts, 'constructor');
    expect(entries(counts.outcomes)).toEqual([['__proto__', 2], ['constructor', 1]]);
  });
});

describe('manifestShapeProblem and countsProblems with such labels', () => {
  it('accepts outcomes whose keys are __proto__, constructor, ... when their values are counts, and refuses one that is not', () => {
    const m = { status: 'complete', counts: JSON.parse('{"rows":5,"rows_without_outcome":0,"outcomes":{"__proto__":1,"constructor":1,"toString":1,"hasOwnProperty":1,"valueOf":1}}') as unknown };
    // The rest of a manifest, as one sweep wrote it, is not this test's: only `counts` is looked at first.
    expect(manifestShapeProblem(m)).not.toMatch(/counts/);
    const bad = { status: 'complete', counts: JSON.parse('{"rows":1,"rows_without_outcome":0,"outcomes":{"__proto__":"x"}}') as unknown };
    expect(manifestShapeProblem(bad)).toMatch(/^its run\.json's counts is not an object of counts/);
  });

  it('countsProblems: equal counts under such keys agree; a label counted on one side only differs', () => {
    const said = JSON.parse('{"rows":3,"rows_without_outcome":0,"outcomes":{"__proto__":2,"toString":1}}') as RunCounts;
    const manifest = { status: 'complete', counts: said, run_id: 'r', name: 'n' } as unknown as Parameters<typeof countsProblems>[0];
    const rows = emptyCounts();
    for (const o of ['__proto__', '__proto__', 'toString']) countRow(rows, o);
    expect(countsProblems(manifest, rows)).toEqual([]);
    const fewer = emptyCounts();
    for (const o of ['toString', 'constructor', 'valueOf']) countRow(fewer, o);
    expect(countsProblems(manifest, fewer)).toHaveLength(1);
  });
});

describe('a run whose outcomes are such labels', () => {
  const spec = parseSweepSpec(SPEC);
  const labels = [...MEMBER_LABELS, 'passed', null] as const;
  const outcomeOf = (slack: number, r: number): string | null => labels[(r + (slack === 8 ? 3 : 0)) % labels.length] ?? null;
  const row = (runId: string, slack: number, r: number): EpisodeRow => ({
    run_id: runId, condition: `slack ${slack} · strictness strict`, slack, strictness: 'strict', replicate_index: r, seed: seedFor('s', r),
    outcome: outcomeOf(slack, r), t: 1, score: null, error: null, meta: '{}', duration_ms: 1,
  });

  it('run.json, listRuns, inspectRun (per condition and in total) and verifyRun count every label', async () => {
    const { dir } = temp;
    // Parts of 3 rows: the counts of each part are added to the run's (the writer's sum, not one count).
    const w = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99, partRows: 3 });
    const id = w.manifest.run_id;
    const rows = [4, 8].flatMap((slack) => Array.from({ length: 8 }, (_, r) => row(id, slack, r)));
    await w.append(rows);
    await w.close('complete');
    const all = rows.map((r) => r.outcome);
    const m = await readManifest(dir, id);
    expect(m.counts.rows).toBe(16);
    expect(m.counts.rows_without_outcome).toBe(all.filter((o) => o === null).length);
    expect(entries(m.counts.outcomes)).toEqual(expected(all));
    expect((await listRuns(dir)).map((r) => r.run_id)).toEqual([id]);
    const seen = await inspectRun(dir, id, { event: '__proto__' });
    expect(seen.matching).toBe(all.filter((o) => o === '__proto__').length);
    expect(seen.conditions.map((c) => [c.condition, c.rows, c.rows_without_outcome, entries(c.outcomes)])).toEqual(
      [4, 8].map((slack) => {
        const of = rows.filter((r) => r.slack === slack).map((r) => r.outcome);
        return [`slack ${slack} · strictness strict`, 8, of.filter((o) => o === null).length, expected(of)];
      }),
    );
    const v = await verifyRun(dir, m);
    expect(v.problems).toEqual([]);
    expect(v.state).toBe('verified');
  });
});
