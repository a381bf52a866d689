import { bhAdjust, holmAdjust } from './stats.js';
import type { HeldBack, Limit, RowVerdict, VerdictWord } from './types.js';

/** What the verdict reads of one test: its p-value, its limit, its simultaneous interval and its change. */
export type Scored = {
  readonly p: number;
  readonly limit: Limit;
  readonly change: number;
  readonly interval: { readonly lower: number; readonly upper: number };
  /**
   * The direction the evidence behind `p` points, when it is not the final change's (the anytime-valid
   * test: the sign of rises minus falls where the e-process peaked); absent: the sign of `change`.
   */
  readonly direction?: -1 | 0 | 1;
  /**
   * Episodes the test's table leaves out although they hold a score (a score between 0 and 1 has no
   * outcome; pairing.ts `scoreDrops`): > 0 holds the test back from `unchanged` ('score without outcome').
   */
  readonly scoreDrops?: number;
  /**
   * At this test's number of pairs and threshold the rule would read `unchanged` more than 5% of the time
   * where the change is the threshold (small-sample.ts, `unchangedErrorAt`): holds it back ('small sample').
   */
  readonly smallSample?: boolean | (() => boolean);
};

/** The verdict over a family of tests, and each test's part in it. */
export type Decision = {
  readonly word: VerdictWord;
  readonly p_holm: readonly number[];
  readonly p_bh: readonly number[];
  readonly counts: readonly boolean[];
  readonly flagged: readonly boolean[];
  readonly verdicts: readonly RowVerdict[];
  /** Per test, what keeps it from `unchanged` (empty when it is `unchanged`, or counts). */
  readonly held_back_by: readonly (readonly HeldBack[])[];
};

/**
 * What keeps a test that does not count from reading `unchanged` (STATS.md, "The verdict word"):
 * `'no room'` when neither direction has room for its limit, `'too few pairs'` when no change could
 * be shown with the pairs there are ({@link Limit}), `'limit'` when its limit is above the
 * threshold (it could not have shown a change that large), `'interval'` when its simultaneous interval
 * reaches past [-threshold, +threshold] (it does not rule one out), `'small sample'` when nothing else
 * holds it back but at its number of pairs and threshold the rule itself reads `unchanged` more than 5%
 * of the time where the change is the threshold (`smallSample`; small-sample.ts). Empty when it reads
 * `unchanged`.
 */
export function heldBackBy(limit: Limit, interval: { readonly lower: number; readonly upper: number }, threshold: number, scoreDrops = 0, smallSample: boolean | (() => boolean) = false): HeldBack[] {
  const out: HeldBack[] = [];
  if (limit === 'no room' || limit === 'too few pairs') out.push(limit);
  else if (!(limit <= threshold)) out.push('limit');
  if (!(interval.lower >= -threshold && interval.upper <= threshold)) out.push('interval');
  // The pairs whose score moved off 0 or 1 are the ones left out: the table cannot say nothing changed.
  if (scoreDrops > 0) out.push('score without outcome');
  // Asked last, and only here: the exact check is read only of a test that would otherwise read `unchanged`.
  if (out.length === 0 && (typeof smallSample === 'function' ? smallSample() : smallSample)) out.push('small sample');
  return out;
}

/**
 * The verdict word (STATS.md, "The verdict word"). With m tests, Holm-adjusted p-values decide which
 * tests count (adj <= q) and Benjamini-Hochberg's which are flagged (adj <= q).
 * - a test that counts is `higher` or `lower` by the sign of its change;
 * - one that does not is `unchanged` when its limit is a number <= threshold and its simultaneous
 *   interval lies inside [-threshold, +threshold], else `inconclusive` ({@link heldBackBy} says why);
 * - the word is `significant change` when any test counts, else `inconclusive` when any test is, else
 *   `no significant change`.
 *
 * @param rows - each test's p-value, limit, interval and change.
 * @param q - the rate both adjustments are held to.
 * @param threshold - the largest change a non-counting test must both be able to show and rule out (one
 *   per test when the family's tests have their own: several candidates, each with its runs' threshold).
 * @returns the word and the per-test figures, in the order given.
 * @see Holm (1979), Scand. J. Statist. 6:65; Benjamini & Hochberg (1995), JRSS B 57:289.
 */
export function decide(rows: readonly Scored[], q: number, threshold: number | readonly number[]): Decision {
  const thresholdOf = (i: number): number => (typeof threshold === 'number' ? threshold : (threshold[i] as number));
  const ps = rows.map((r) => r.p);
  const p_holm = holmAdjust(ps);
  const p_bh = bhAdjust(ps);
  // A test whose evidence peaked one way while its final change goes the other way (or nowhere) names no
  // direction: it does not count, and reads inconclusive (held back by 'direction').
  const wrongWay = rows.map((r) => r.direction !== undefined && r.direction !== Math.sign(r.change));
  const reversed = rows.map((_, i) => (p_holm[i] as number) <= q && wrongWay[i] === true);
  const counts = p_holm.map((p, i) => p <= q && !reversed[i]);
  // Nor is a row flagged whose evidence went the other way, whether or not Holm would count it.
  const flagged = p_bh.map((p, i) => p <= q && wrongWay[i] !== true);
  const held_back_by = rows.map((r, i) => {
    if (counts[i]) return [];
    const held = heldBackBy(r.limit, r.interval, thresholdOf(i), r.scoreDrops ?? 0, r.smallSample ?? false);
    return reversed[i] ? ['direction' as const, ...held] : held;
  });
  const verdicts: RowVerdict[] = rows.map((r, i) => {
    if (counts[i]) return r.change < 0 ? 'lower' : 'higher';
    return (held_back_by[i] as HeldBack[]).length === 0 ? 'unchanged' : 'inconclusive';
  });
  const word: VerdictWord = counts.some(Boolean)
    ? 'significant change'
    : verdicts.includes('inconclusive')
      ? 'inconclusive'
      : 'no significant change';
  return { word, p_holm, p_bh, counts, flagged, verdicts, held_back_by };
}
