// `diff --sequential` and the looks of extended runs (STATS.md, "Looks: runs extended after a diff").
import { changeDiscordance, limitsFromMde, NO_PAIRS, type LimitContext, type Limits } from './limits.js';
import type { Pair } from './pairing.js';
import { sequentialMde, sequentialP } from './stats.js';
import { tableSize, type PairedTable } from './tables.js';
import type { DiffManifest, RunLooks } from './types.js';

/** How the method line names the anytime-valid test. */
export const SEQUENTIAL_TEST_NAME = 'anytime-valid McNemar: the Beta(1/2, 1/2) mixture e-process over the discordant pairs in replicate order, p = 1 / max E';

/**
 * The anytime-valid p-value of one condition x event: the discordant pairs of `pairs` (in replicate
 * order) as rises and falls of `event`, read by the Beta(1/2, 1/2) mixture e-process; and the direction
 * of the evidence behind it, the sign of rises minus falls where the e-process peaked (0 when it never
 * rose above 1).
 */
export function sequentialPValue(pairs: readonly Pair[], event: string): { readonly p: number; readonly direction: -1 | 0 | 1 } {
  const directions: boolean[] = [];
  for (const p of [...pairs].sort((x, y) => x.replicate_index - y.replicate_index)) {
    const x = p.a === event;
    const y = p.b === event;
    if (x !== y) directions.push(y);
  }
  return sequentialP(directions);
}

// The MDE depends on (n, discordant, alpha, power) only, and its bisection is the costly part of a
// sequential diff: a bounded cache shared by every diff of the process (compareRuns, the calibration).
const CACHE = new Map<string, number>();
const CACHE_LIMIT = 100_000;
function cached(key: string, ctx: Pick<LimitContext, 'alpha' | 'power'>): number | undefined {
  return CACHE.get(`${key}:${ctx.alpha}:${ctx.power}`);
}
function remember(key: string, ctx: Pick<LimitContext, 'alpha' | 'power'>, d: number): void {
  if (CACHE.size >= CACHE_LIMIT) CACHE.clear();
  CACHE.set(`${key}:${ctx.alpha}:${ctx.power}`, d);
}

/**
 * A condition's limits under --sequential: the smallest change the e-process, read at the final n only,
 * would reject 4 times in 5 (a lower bound on its power, so the limit is never optimistic), at the
 * condition's observed discordance (rise + fall) / n, a change of d read at psi^ + d where pairs disagree
 * both ways (as pairedLimits in limits.ts), held against the room as the fixed-n limits are.
 *
 * @param memo - limits by "n:discordant", and whether the pairs disagree both ways (the model).
 */
export function sequentialLimits(t: PairedTable, ctx: Pick<LimitContext, 'alpha' | 'power' | 'bothWays'>, memo?: Map<string, number>): Limits {
  const n = tableSize(t);
  if (n === 0) return NO_PAIRS;
  const k = t.rise + t.fall;
  const before = (t.both + t.fall) / n;
  // As the fixed-n limits (pairedLimits): a change of d is read at psi^ + d where pairs disagree both ways.
  const model = changeDiscordance(t, ctx.bothWays === true);
  const key = `${n}:${k}${model === null ? '' : ':both-ways'}`;
  let d = memo?.get(key) ?? cached(key, ctx);
  if (d === undefined) {
    d = sequentialMde(n, ctx.alpha, ctx.power, k / n, model ?? undefined);
    memo?.set(key, d);
    remember(key, ctx, d);
  }
  // An infinite MDE: no change up to 1 reaches the power with n pairs (as pairedLimits).
  return limitsFromMde(d, d, before, 'too few pairs');
}

/**
 * The looks a run has had: its replicates at the sweep and after each `extend` (from the manifest's
 * `extensions`, each `{ from_index, to_index }`).
 */
export function looksOf(manifest: DiffManifest): RunLooks {
  const raw = Array.isArray(manifest['extensions']) ? (manifest['extensions'] as unknown[]) : [];
  const ext = raw.filter((e): e is { from_index: number; to_index: number } => {
    const o = e as { from_index?: unknown; to_index?: unknown } | null;
    return o !== null && typeof o === 'object' && typeof o.from_index === 'number' && typeof o.to_index === 'number';
  });
  // A retry interrupted and continued by the next resume (`continues_from_part`) is one retry.
  const retried = Array.isArray(manifest['retries']) ? (manifest['retries'] as unknown[]).filter((r) => !(typeof r === 'object' && r !== null && typeof (r as { continues_from_part?: unknown }).continues_from_part === 'number')).length : 0;
  const retries = retried > 0 ? { retries: retried } : {};
  if (ext.length === 0) {
    const reps = typeof manifest['replicates'] === 'number' ? (manifest['replicates'] as number) : null;
    return Object.freeze({ extensions: 0, replicates: Object.freeze(reps === null ? [] : [reps]), ...retries });
  }
  const sizes = [(ext[0] as { from_index: number }).from_index, ...ext.map((e) => e.to_index + 1)];
  return Object.freeze({ extensions: ext.length, replicates: Object.freeze(sizes), ...retries });
}

/**
 * The looks that bear on a paired diff that compares replicates 0 to `compared` - 1 only: the sizes below
 * it, then `compared` itself. An extension none of whose replicates has a partner in the other run was
 * not read, and is not a look of this diff (a run extended 128 -> 256 against one of 128 reads one size).
 */
export function comparedLooks(looks: RunLooks, compared: number): RunLooks {
  const sizes = looks.replicates;
  if (looks.extensions === 0 || !(compared < (sizes[sizes.length - 1] as number))) return looks;
  const kept = [...sizes.filter((s) => s < compared), compared];
  return Object.freeze({ extensions: kept.length - 1, replicates: Object.freeze(kept), ...(looks.retries !== undefined ? { retries: looks.retries } : {}) });
}

/** The looks clause's last words for paired runs extended (not retried): `--sequential` reads them anytime-valid. */
const PAIRED_LOOKS = '--sequential reads it anytime-valid';

/** The looks clause's last words for runs that are not paired: `--sequential` refuses them. */
export const UNPAIRED_LOOKS = 'no anytime-valid reading exists for runs that are not paired (--sequential reads paired runs: sweep both on one salt)';

/**
 * The clause the sentence adds when a run was extended, or had its errors run again: how many times, and
 * its replicates at each look. Null when neither run was. `anytime` names the anytime-valid reading (a
 * verb without `--sequential` names diff's). A retry (`resume --retry-errors`) fills in pairs among those
 * a diff read before it: the anytime-valid test takes the pairs in replicate order, so its guarantee
 * covers extensions (pairs after the last), not retries, and the clause says so (until the seventh
 * session of 2026-12-05 retries were not named, and the clause said the looks did not raise the rate).
 */
export function looksWords(before: RunLooks, after: RunLooks, sequential: boolean, anytime: string = PAIRED_LOOKS): string | null {
  const times = (k: number): string => (k === 1 ? 'once' : `${k} times`);
  const one = (name: string, l: RunLooks): string | null => {
    const said = [
      ...(l.extensions === 0 ? [] : [`was extended ${times(l.extensions)} (replicates ${l.replicates.join(', ')})`]),
      ...(l.retries === undefined || l.retries === 0 ? [] : [`had its errors run again ${times(l.retries)} (resume --retry-errors)`]),
    ];
    return said.length === 0 ? null : `${name} ${said.join(' and ')}`;
  };
  const parts = [one('before', before), one('after', after)].filter((s): s is string => s !== null);
  if (parts.length === 0) return null;
  const retried = (before.retries ?? 0) > 0 || (after.retries ?? 0) > 0;
  const extended = before.extensions > 0 || after.extensions > 0;
  const tail = sequential
    ? retried
      ? `read with anytime-valid p-values, which take the pairs in replicate order: a retry fills in pairs among those already read, so their guarantee does not cover a diff read before a retry and again after it${extended ? ' (it covers the extensions)' : ''}`
      : 'read with anytime-valid p-values and confidence sequences, so the looks raise neither the rate of false significant changes nor that of false no significant changes'
    : retried
      ? `a diff read before and after each ${extended ? 'extension or retry' : 'retry'} and stopped at the first significant one, or at the first no significant change, overstates the evidence; ${anytime === PAIRED_LOOKS ? 'no reading is anytime-valid across a retry (--sequential takes the pairs in replicate order, and a retry fills in pairs among those already read)' : anytime}`
      : `a diff read at each size and stopped at the first significant one, or at the first no significant change, overstates the evidence; ${anytime}`;
  return `${parts.join(' and ')}: ${tail}`;
}
