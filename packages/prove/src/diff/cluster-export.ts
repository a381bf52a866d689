// `export --cluster AXIS`: each run's outcome rates over all its conditions, with CR2 intervals by the axis.
import { DiffError } from './diff-error.js';
import { refuseClusteredSamples, sampleAxisValues } from './same-sample-axes.js';
import { mdCell } from '../internal/csv-cell.js';
import { axisNames } from './pairing.js';
import { clusteredMean } from './stats.js';
import type { RunColumns } from './run-columns.js';
import { NO_OUTCOME } from './run-index.js';

/** One run x outcome: the rate over every episode with an outcome, with its CR2 interval by the axis. */
export type ClusteredRate = {
  readonly run_id: string;
  readonly run_name: string;
  readonly outcome: string;
  /** G: values of the axis among the run's episodes with an outcome. */
  readonly clusters: number;
  readonly n: number;
  readonly rate: number;
  /** CR2 standard error of the rate over the clusters. */
  readonly standard_error: number;
  /** The interval's t degrees of freedom (Bell-McCaffrey's). */
  readonly df: number;
  readonly lower: number;
  readonly upper: number;
};

/** The clustered rates of an export (`clustered` in the table). */
export type ClusteredRates = { readonly cluster_axis: string; readonly level: number; readonly method: string; readonly rows: readonly ClusteredRate[] };

/**
 * Per run and outcome label, the rate over every episode of every condition (those with an outcome),
 * with a cluster-robust (CR2) interval, t on Bell-McCaffrey df, clustering the episodes by their value of `axis`:
 * a rate read as a claim about the population of that axis's values (tasks, documents).
 *
 * @throws {@link DiffError} (E_DIFF, exit 2) when a run lacks the axis or its episodes fall in fewer than 2 values, or
 *   the axis is one whose values score the same samples (lm-eval's `filter`: {@link refuseClusteredSamples}).
 * @see Cameron & Miller (2015); Miller (2024) arXiv:2411.00640; poisson-stats `clusterRobustMean`.
 */
export function clusteredRates(runs: readonly RunColumns[], labels: readonly string[], axis: string, level: number): ClusteredRates {
  const rows: ClusteredRate[] = [];
  for (const run of runs) {
    const axes = axisNames(run.manifest);
    if (!axes.includes(axis)) throw new DiffError('E_DIFF', `--cluster ${axis} names no axis of run ${run.manifest.name} (it has ${axes.join(', ') || 'none'}); name one of them, e.g. --cluster ${axes[0] ?? 'task'}.`);
    refuseClusteredSamples(sampleAxisValues(run.manifest), axis);
    // The episodes with an outcome, in stored order: their outcome codes and their axis values (by reference).
    const column = run.axes.get(axis);
    const texts = column === undefined ? [] : column.values.map(String);
    const outcomes: number[] = [];
    const clusters: string[] = [];
    for (let i = 0; i < run.length; i++) {
      const o = run.outcome[i] as number;
      if (o === NO_OUTCOME) continue;
      outcomes.push(o);
      clusters.push(column === undefined ? 'null' : (texts[column.codes[i] as number] as string));
    }
    const distinct = new Set(clusters).size;
    if (distinct < 2) {
      throw new DiffError('E_DIFF', `--cluster ${axis}: run ${run.manifest.name}'s episodes fall in ${distinct} value of ${axis}, and a cluster-robust interval needs at least 2; cluster by an axis with several values, or leave --cluster out.`);
    }
    for (const outcome of labels) {
      const code = run.codes.codes.get(outcome);
      const r = clusteredMean(outcomes.map((o) => (o === code ? 1 : 0)), clusters, level);
      rows.push(Object.freeze({ run_id: run.manifest.run_id, run_name: run.manifest.name, outcome, clusters: r.clusters, n: outcomes.length, rate: r.mean, standard_error: r.standard_error, df: r.df, lower: r.interval.lower, upper: r.interval.upper }));
    }
  }
  return Object.freeze({ cluster_axis: axis, level, method: `each run's rate over all its conditions, cluster-robust (CR2) interval by ${axis}, t on Bell-McCaffrey df`, rows: Object.freeze(rows) });
}

/** The clustered rates as a Markdown table. */
export function formatClusteredRatesMarkdown(c: ClusteredRates): string[] {
  const f = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '');
  const out = [`## Rates clustered by ${mdCell(c.cluster_axis)}`, '', '| run | outcome | clusters | episodes | rate | CR2 interval |', '| --- | --- | ---: | ---: | ---: | --- |'];
  for (const r of c.rows) out.push(`| ${mdCell(r.run_name)} | ${mdCell(r.outcome)} | ${r.clusters} | ${r.n} | ${f(r.rate)} | [${f(r.lower)}, ${f(r.upper)}] |`);
  out.push('', `${c.method}, at ${Math.round(c.level * 100)}%.`);
  return out;
}
