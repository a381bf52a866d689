import { bhAdjust, holmAdjust } from './stats.js';
import type { Limit, RowVerdict, VerdictWord } from './types.js';

/** What the verdict reads of one test: its p-value, its limit and the sign of its change. */
export type Scored = { readonly p: number; readonly limit: Limit; readonly change: number };

/** The verdict over a family of tests, and each test's part in it. */
export type Decision = {
  readonly word: VerdictWord;
  readonly p_holm: readonly number[];
  readonly p_bh: readonly number[];
  readonly counts: readonly boolean[];
  readonly flagged: readonly boolean[];
  readonly verdicts: readonly RowVerdict[];
};

/**
 * The verdict word (STATS.md, "The verdict word"). With m tests, Holm-adjusted p-values decide which
 * tests count (adj <= q) and Benjamini-Hochberg's which are flagged (adj <= q).
 * - a test that counts is `higher` or `lower` by the sign of its change;
 * - one that does not is `unchanged` when its limit is a number <= threshold, else `inconclusive`;
 * - the word is `significant change` when any test counts, else `inconclusive` when any test is, else
 *   `no significant change`.
 *
 * @param rows - each test's p-value, limit and change.
 * @param q - the rate both adjustments are held to.
 * @param threshold - the largest limit a non-counting test may have and still read `unchanged`.
 * @returns the word and the per-test figures, in the order given.
 * @see Holm (1979), Scand. J. Statist. 6:65; Benjamini & Hochberg (1995), JRSS B 57:289.
 */
export function decide(rows: readonly Scored[], q: number, threshold: number): Decision {
  const ps = rows.map((r) => r.p);
  const p_holm = holmAdjust(ps);
  const p_bh = bhAdjust(ps);
  const counts = p_holm.map((p) => p <= q);
  const flagged = p_bh.map((p) => p <= q);
  const verdicts: RowVerdict[] = rows.map((r, i) => {
    if (counts[i]) return r.change < 0 ? 'lower' : 'higher';
    return typeof r.limit === 'number' && r.limit <= threshold ? 'unchanged' : 'inconclusive';
  });
  const word: VerdictWord = counts.some(Boolean)
    ? 'significant change'
    : verdicts.includes('inconclusive')
      ? 'inconclusive'
      : 'no significant change';
  return { word, p_holm, p_bh, counts, flagged, verdicts };
}
