// `diff --cluster AXIS` on binary events (STATS.md, "Clusters for binary outcomes").
import { DiffError } from './diff-error.js';
import type { ConditionPairs } from './pairing.js';
import { fmt3 } from './sentence.js';
import { clusteredBinary, holmAdjust } from './stats.js';
import { pairedTable, type PairedTable } from './tables.js';
import { fmtChange, fmtInterval, fmtP, sectionLines, type ReportSection } from './text-table.js';
import type { ClusteredEventRow, ClusteredEvents } from './types.js';

/** The family-wise level of the clustered intervals: 95%, Bonferroni over the events. */
const FAMILY_LEVEL = 0.95;

/** Checks that `axis` is an axis of the runs with at least 2 values among the compared conditions. */
export function checkBinaryCluster(axis: string, axes: readonly string[], conditions: readonly ConditionPairs[]): void {
  if (!axes.includes(axis)) {
    throw new DiffError('E_DIFF', `--cluster ${axis} names no axis of the runs (they have ${axes.length > 0 ? axes.join(', ') : 'none'}); name one of them, e.g. --cluster ${axes[0] ?? 'task'}.`);
  }
  const values = new Set(conditions.filter((c) => c.pairs.length > 0).map((c) => String(c.values[axis])));
  if (values.size < 2) {
    throw new DiffError(
      'E_DIFF',
      `--cluster ${axis}: the pairs fall in ${values.size} value${values.size === 1 ? '' : 's'} of ${axis}, and a clustered test needs at least 2 clusters; cluster by an axis with several values, or leave --cluster out.`,
    );
  }
}

/** Per value of `axis`, the paired table of `event` over every pair of the conditions with that value. */
export function clusterTables(conditions: readonly ConditionPairs[], axis: string, event: string): { value: string; table: PairedTable }[] {
  const byValue = new Map<string, PairedTable>();
  for (const c of conditions) {
    const v = String(c.values[axis]);
    const t = pairedTable(c.pairs, event);
    const prev = byValue.get(v);
    byValue.set(v, prev === undefined ? t : { kind: 'paired', both: prev.both + t.both, rise: prev.rise + t.rise, fall: prev.fall + t.fall, neither: prev.neither + t.neither });
  }
  return [...byValue].map(([value, table]) => ({ value, table }));
}

/**
 * The clustered reading of binary events: per event, every pair of every compared condition pooled, with
 * the pairs grouped by the value of `axis` (e.g. the task: several seeds of one task are not independent).
 * Durkalski's clustered McNemar test (chi-square on 1 df; with one pair per cluster it is McNemar's
 * asymptotic test) and the CR2 interval of the change (the mean of D = after - before in {-1, 0, 1},
 * t on Bell-McCaffrey df), simultaneous (Bonferroni) over the events at 95%; Holm over the events at q.
 *
 * @param conditions - the paired conditions of the diff.
 * @param axes - the runs' axis names.
 * @param events - the events tested.
 * @param axis - the clustering axis.
 * @param q - the family-wise rate of the Holm adjustment.
 * @returns the frozen section.
 * @throws {@link DiffError} (E_DIFF, exit 2) when `axis` is no axis or its pairs fall in fewer than 2 values.
 * @see Durkalski et al. (2003) Stat Med 22:2417; Obuchowski (1998) Stat Med 17:1495; poisson-stats `clusteredMcnemar`.
 */
export function clusterBinary(conditions: readonly ConditionPairs[], axes: readonly string[], events: readonly string[], axis: string, q: number): ClusteredEvents {
  checkBinaryCluster(axis, axes, conditions);
  const m = events.length;
  const rows = clusteredRows(events.map((event) => ({ event, conditions })), axis, q, 1 - (1 - FAMILY_LEVEL) / m);
  const pct = `${Math.round(FAMILY_LEVEL * 100)}%`;
  return Object.freeze({
    cluster_axis: axis,
    method: `clustered McNemar (Durkalski et al. 2003) on every pair of every condition, clustered by ${axis}; the change's interval with cluster-robust (CR2) standard errors, t on Bell-McCaffrey df`,
    q,
    tests: m,
    rule: `Holm, q ${q} over the ${m} event${m === 1 ? '' : 's'}; a claim about the population of ${axis} values, not only these pairs`,
    intervals_rule: `CR2 at ${pct}, simultaneous (Bonferroni) over the ${m} event${m === 1 ? '' : 's'}`,
    rows: Object.freeze(rows.map((r) => r as ClusteredEventRow)),
  });
}

/**
 * The clustered test of each group (one event over some conditions), Holm over the groups that have
 * one; a group whose pairs fall in fewer than 2 values of `axis` has none (null).
 *
 * @param groups - each an event and the conditions it pools.
 * @param axis - the clustering axis.
 * @param q - the Holm rate.
 * @param level - the interval level of each group.
 */
export function clusteredRows(groups: readonly { event: string; conditions: readonly ConditionPairs[] }[], axis: string, q: number, level: number): (ClusteredEventRow | null)[] {
  const results = groups.map(({ event, conditions }) => {
    const tables = clusterTables(conditions, axis, event)
      .map((c) => c.table)
      .filter((t) => t.both + t.rise + t.fall + t.neither > 0);
    if (tables.length < 2) return null;
    return { event, r: clusteredBinary(tables, level), beforeEvents: tables.reduce((s, t) => s + t.both + t.fall, 0) };
  });
  const tested = results.filter((x): x is NonNullable<typeof x> => x !== null);
  const adj = holmAdjust(tested.map((x) => x.r.p));
  return results.map((x) => {
    if (x === null) return null;
    const { event, r, beforeEvents } = x;
    const pHolm = adj[tested.indexOf(x)] as number;
    const before = beforeEvents / r.n;
    const significant = pHolm <= q;
    return Object.freeze({
      event,
      clusters: r.clusters,
      n: r.n,
      before,
      after: before + r.change,
      change: r.change,
      rise: r.rise,
      fall: r.fall,
      chi_squared: r.chi_squared,
      p: r.p,
      p_holm: pHolm,
      min_p: r.min_p,
      significant,
      standard_error: r.standard_error,
      df: r.df,
      standard_error_iid: r.standard_error_iid,
      // SE 0: every cluster changed alike; no interval rather than a point (the scores' pooled line does the same).
      constant: r.standard_error === 0,
      interval: r.standard_error === 0 ? null : Object.freeze({ ...r.interval, method: 'cluster-robust (CR2), t on Bell-McCaffrey df' as const }),
      // Durkalski's p is at least min_p with these clusters, and Holm's first step asks p <= q / m of the m
      // tested: above that no outcome could have counted.
      verdict: significant ? (r.change < 0 ? ('lower' as const) : ('higher' as const)) : r.min_p > q / tested.length ? ('too few clusters' as const) : ('not significant' as const),
    });
  });
}

/** The clustered section of a diff as lines and a table ({@link ReportSection}); the text diff and the view page draw it. */
export function clusteredSection(c: ClusteredEvents): ReportSection {
  const table: string[][] = [['event', 'clusters', 'pairs', 'before', 'after', 'change', 'interval', 'se (iid)', 'p', 'p_holm', 'verdict']];
  for (const r of c.rows) {
    table.push([
      r.event,
      String(r.clusters),
      String(r.n),
      fmt3(r.before),
      fmt3(r.after),
      fmtChange(r.change),
      r.interval === null ? 'no interval' : fmtInterval(r.interval),
      `${fmt3(r.standard_error)} (${fmt3(r.standard_error_iid)})`,
      fmtP(r.p),
      fmtP(r.p_holm),
      r.verdict,
    ]);
  }
  const lines: [string, string][] = [['clusters', c.method], ['', `${c.rule}; intervals: ${c.intervals_rule}`]];
  if (c.rows.some((r) => r.constant)) lines.push(['', 'no interval: every cluster changed alike (standard error 0), so the clusters do not say how far the change could be from it']);
  const few = c.rows.filter((r) => r.verdict === 'too few clusters');
  for (const g of [...new Set(few.map((r) => r.clusters))]) {
    const r = few.find((x) => x.clusters === g) as ClusteredEventRow;
    const m = c.rows.filter((x) => x !== null).length;
    lines.push(['', `too few clusters: with ${g} clusters the clustered test cannot give a p below ${fmtP(r.min_p)} (Durkalski: X^2 <= G), above q ${c.q}${m > 1 ? ` / ${m} tests (Holm's first step)` : ''}; no clustered verdict is possible: cluster by an axis with more values`]);
  }
  return { lines, table, numeric: [false, ...Array<boolean>(9).fill(true), false] };
}

/** The clustered section of the text report ({@link clusteredSection} as text, its table indented under the lines). */
export function formatClusteredLines(c: ClusteredEvents): string[] {
  return sectionLines(clusteredSection(c), { gap: false, indent: '  ' });
}
