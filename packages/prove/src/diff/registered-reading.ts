// The level a diff reads at: the q, power and paired test its runs' sweeps recorded, where the caller
// names none. Internal to the diff.
import { shown } from 'poisson-core';
import { TEST_METHODS } from './stats.js';
import type { DiffManifest, DiffOptions, TestMethod } from './types.js';

/** The options a diff computes with, and what it says about where their levels came from. */
export type RegisteredReading = { readonly options: DiffOptions; readonly warnings: readonly string[] };

type Key = 'q' | 'power' | 'method';

/** A swept run's recorded q, power or method, or undefined: an import's are defaults nobody chose. */
function recorded(m: DiffManifest, key: Key): number | TestMethod | undefined {
  if (m['import'] !== undefined && m['import'] !== null) return undefined;
  const v = m[key];
  if (key === 'method') return typeof v === 'string' && (TEST_METHODS as readonly string[]).includes(v) ? (v as TestMethod) : undefined;
  return typeof v === 'number' && v > 0 && v < 1 ? v : undefined;
}

/**
 * The diff's q, power and method: each the caller's when given, else the one both runs' sweeps recorded
 * (a sweep records what its power gate planned with: "false discovery rate for the gate and the diff"),
 * else, when the two recorded different ones, the stricter (the smaller q, the larger power; the exact
 * test for two methods), else when one run recorded one (the other an import), that one; else the
 * defaults (q 0.05, power 0.8, exact). As the diff's default events are the declared ones (STATS.md,
 * "Events"), so that the design and the reading count the same tests at the same level. Runs swept at
 * the defaults read as they always did.
 *
 * Warnings: when the runs recorded different levels (read at the stricter), and when a level given is
 * looser than the one both runs recorded (a larger q, a smaller power): a pre-registered level read more
 * loosely. A stricter level given, or another test, is not warned of.
 *
 * @param before - run A's manifest; after - run B's.
 * @param options - the caller's options.
 * @returns the options to compute with, and the warnings.
 */
export function registeredReading(before: DiffManifest, after: DiffManifest, options: DiffOptions): RegisteredReading {
  return familyReading([
    { manifest: before, role: 'before' },
    { manifest: after, role: 'after' },
  ], options);
}

/**
 * {@link registeredReading} over a family of runs (a baseline and its candidates, `diff A B C`): one level
 * for every diff of the family, the strictest the runs recorded where they differ, so that the family's
 * tests are held to one q whatever the candidates' order.
 *
 * @param runs - each run's manifest and its role in the warnings (`before`, `candidate 2`).
 * @param options - the caller's options.
 */
export function familyReading(runs: readonly { readonly manifest: DiffManifest; readonly role: string }[], options: DiffOptions): RegisteredReading {
  const chosen: Partial<Record<Key, number | TestMethod>> = {};
  const differing: string[] = [];
  const departed: { key: Key; given: number | TestMethod; swept: number | TestMethod }[] = [];
  // A swept run whose run.json holds a level that is not one (a q of "0.1", as sweep recorded a string
  // given it until the third session of 2026-12-07): not read, and said, where the caller gave none.
  const unreadable: string[] = [];
  for (const key of ['q', 'power', 'method'] as const) {
    const values = runs.map((r) => recorded(r.manifest, key));
    const known = values.filter((v): v is number | TestMethod => v !== undefined);
    const same = known.length > 0 && known.every((v) => v === known[0]);
    const given = options[key];
    if (given === undefined) {
      runs.forEach((r, i) => {
        const raw = r.manifest[key];
        const swept = r.manifest['import'] === undefined || r.manifest['import'] === null;
        if (swept && values[i] === undefined && raw !== undefined && raw !== null) unreadable.push(`${r.role} records ${key} ${shown(raw)}`);
      });
    }
    if (given !== undefined) {
      // Said when laxer than every run's own (a larger q, a smaller power): a pre-registered level read
      // more loosely. A stricter reading, or another test, claims no more than the design planned.
      const a = known[0];
      const laxer = key === 'q' ? (given as number) > (a as number) : key === 'power' ? (given as number) < (a as number) : false;
      if (same && known.length === runs.length && laxer) departed.push({ key, given, swept: a as number | TestMethod });
      continue;
    }
    if (known.length === 0) continue;
    if (same) {
      chosen[key] = known[0] as number | TestMethod;
      continue;
    }
    const nums = known as number[];
    chosen[key] = key === 'q' ? Math.min(...nums) : key === 'power' ? Math.max(...nums) : 'exact';
    const each = runs.flatMap((r, i) => (values[i] === undefined ? [] : [`${String(values[i])} (${r.role})`]));
    differing.push(`${key} ${each.length === 2 ? each.join(' and ') : each.join(', ')}`);
  }
  const warnings: string[] = [];
  if (differing.length > 0) {
    const read = (['q', 'power', 'method'] as const).filter((k) => differing.some((d) => d.startsWith(`${k} `))).map((k) => `${k} ${String(chosen[k])}`);
    const flags = (['q', 'power', 'method'] as const).filter((k) => differing.some((d) => d.startsWith(`${k} `))).map((k) => `--${k}`);
    warnings.push(`the runs were swept at ${differing.join(', ')}: read at the stricter, ${read.join(', ')}; pass ${flags.join(' or ')} to read at another`);
  }
  if (unreadable.length > 0) {
    const keys = [...new Set(unreadable.map((u) => u.split(' records ')[1]?.split(' ')[0] as string))];
    warnings.push(`${unreadable.join(', ')}, which is not a level a sweep records (q and power: numbers in (0, 1); method: ${TEST_METHODS.join(', ')}): not read; pass ${keys.map((k) => `--${k}`).join(' and ')} with the level the sweep meant`);
  }
  if (departed.length > 0) {
    const and = (xs: string[]): string => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1) as string}`);
    warnings.push(
      `read at ${and(departed.map((d) => `${d.key} ${String(d.given)}`))}, given, where ${runs.length === 2 ? 'both runs were' : 'every run was'} swept (their power gate planned) at ${and(departed.map((d) => `${d.key} ${String(d.swept)}`))}: a looser reading than the one the sweeps recorded`,
    );
  }
  return { options: { ...options, ...chosen } as DiffOptions, warnings };
}

/**
 * The level a diff of these runs reads at when given none ({@link registeredReading} of no options, with
 * the defaults): what a command without `--q`, `--power` or `--method` reads, so that a command written
 * for a reading (the `next:` line, the page's report commands) names a flag only where it differs.
 */
export function plainLevel(before: DiffManifest, after: DiffManifest): { readonly q: number; readonly power: number; readonly method: TestMethod } {
  const o = registeredReading(before, after, {}).options;
  return { q: o.q ?? 0.05, power: o.power ?? 0.8, method: o.method ?? 'exact' };
}
