// pairIndexes counts a condition's pairs in a loop that reads no score (tallyOutcomes), and the two
// counts scores enter (pairs dropped for a score without an outcome, such episodes) in a pass of its own
// only where a run holds scores: one loop doing both took twice as long on the 10^6 diff. Checked here
// against a count over the rows themselves, on random pairs of runs with missing slots, episodes without
// an outcome, sizes that differ, seeds that sometimes differ, and (half the time) scores, some without an
// outcome and some equal in both runs.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from './__fixtures__/independent-runs.js';
import { pairIndexes } from './pairing.js';
import { indexRows } from './run-index.js';
import type { DiffRun } from './types.js';

const OUTCOMES = ['passed', 'failed', 'truncated', null] as const;
const CONDITIONS = ['slack 1', 'slack 2', 'slack 3'];
type Row = { condition: string; replicate_index: number; seed: number; outcome: string | null; score: number | null };

function randomRows(rand: () => number, size: number, seedShift: number, scored: boolean): Row[] {
  return CONDITIONS.flatMap((c) =>
    Array.from({ length: size }, (_, r) => r)
      .filter(() => rand() < 0.85)
      .map((r) => ({
        condition: c,
        replicate_index: r,
        seed: 100 + r + (rand() < seedShift ? 1 : 0),
        outcome: OUTCOMES[Math.floor(rand() * OUTCOMES.length)] as string | null,
        // Few distinct scores, so that both runs often hold the same one.
        score: scored && rand() < 0.6 ? Math.floor(rand() * 3) / 2 : null,
      })),
  );
}

const run = (id: string, rows: Row[]): DiffRun => ({
  manifest: { run_id: id, name: id, salt: 's', max_mde: 0.1, axes: { slack: { type: 'continuous', values: [] } } },
  rows: rows.map((r) => ({ ...r, t: 1, slack: Number(r.condition.slice(6)) })),
});

/** What pairIndexes must count for one condition, from the rows (the oracle). */
function expected(a: Row[], b: Row[], labels: readonly string[]) {
  const K = labels.length;
  const code = (o: string): number => labels.indexOf(o);
  const cross = new Array<number>(K * K).fill(0);
  const [before, after] = [new Array<number>(K).fill(0), new Array<number>(K).fill(0)];
  for (const r of a) if (r.outcome !== null) before[code(r.outcome)]! += 1;
  for (const r of b) if (r.outcome !== null) after[code(r.outcome)]! += 1;
  const c = { pairs: 0, dropped: 0, dropped_before_only: 0, dropped_after_only: 0, unmatched_before: 0, unmatched_after: 0, seed_mismatches: 0 };
  let [scorePairs, scoreEpisodes] = [0, 0];
  const byA = new Map(a.map((r) => [r.replicate_index, r]));
  const byB = new Map(b.map((r) => [r.replicate_index, r]));
  const noOutcomeScored = (r: Row | undefined): boolean => r !== undefined && r.outcome === null && r.score !== null;
  for (const rep of new Set([...byA.keys(), ...byB.keys()])) {
    const [x, y] = [byA.get(rep), byB.get(rep)];
    const [noA, noB] = [noOutcomeScored(x), noOutcomeScored(y)];
    scoreEpisodes += Number(noA) + Number(noB);
    if (x === undefined || y === undefined) {
      if (x === undefined) c.unmatched_after++;
      else c.unmatched_before++;
      continue;
    }
    if (x.seed !== y.seed) c.seed_mismatches++;
    if ((noA || noB) && !(noA && noB && x.score === y.score)) scorePairs++;
    if (x.outcome === null || y.outcome === null) {
      c.dropped++;
      if (y.outcome !== null) c.dropped_before_only++;
      else if (x.outcome !== null) c.dropped_after_only++;
      continue;
    }
    cross[code(x.outcome) * K + code(y.outcome)]! += 1;
    c.pairs++;
  }
  return { cross, before, after, coverage: c, scoreDrops: scoreEpisodes > 0 ? { pairs: scorePairs, episodes: scoreEpisodes } : undefined };
}

describe('pairIndexes: the counts of each condition', () => {
  it('are the rows\' own (400 random pairs of runs, half of them scored)', () => {
    const rand = mulberry32(20261207);
    const seen = { mismatched: 0, uneven: 0, scored: 0, scoreDrops: 0 };
    for (let k = 0; k < 400; k++) {
      const [sa, sb] = [1 + Math.floor(rand() * 30), 1 + Math.floor(rand() * 30)];
      const scored = k % 2 === 0;
      const rowsA = randomRows(rand, sa, rand() < 0.3 ? 0.2 : 0, scored);
      const rowsB = randomRows(rand, sb, 0, scored);
      const [A, B] = indexRows(run('a', rowsA), run('b', rowsB));
      const p = pairIndexes(A, B);
      for (const c of p.conditions) {
        const want = expected(rowsA.filter((r) => r.condition === c.label), rowsB.filter((r) => r.condition === c.label), c.counts.labels);
        const got = { cross: [...c.counts.cross], before: [...c.counts.before], after: [...c.counts.after], coverage: c.coverage, scoreDrops: c.scoreDrops };
        expect(got).toMatchObject({ ...want, coverage: expect.objectContaining(want.coverage) });
        expect(c.scoreDrops).toEqual(want.scoreDrops);
        if (want.scoreDrops !== undefined) seen.scoreDrops++;
      }
      if (!p.paired) seen.mismatched++;
      if (sa !== sb) seen.uneven++;
      if (scored) seen.scored++;
    }
    // Every branch occurred: seeds that differ, runs of different sizes, scores without an outcome.
    expect(seen.mismatched).toBeGreaterThan(20);
    expect(seen.uneven).toBeGreaterThan(300);
    expect(seen.scoreDrops).toBeGreaterThan(100);
  });
});
