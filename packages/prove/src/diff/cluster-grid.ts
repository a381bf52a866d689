// `report --cluster AXIS`: each cell of the grid read with the clustered McNemar test.
import { checkBinaryCluster, clusteredRows } from './cluster-binary.js';
import { DiffError } from './diff-error.js';
import { pairIndexes } from './pairing.js';
import type { ReportGrid } from './report-grid.js';
import { fmtChange, fmtInterval, fmtP, printDecimals, textTable } from './text-table.js';
import type { RunIndex } from './run-index.js';
import type { ClusteredEventRow } from './types.js';

/** One cell's clustered reading (null when its pairs fall in fewer than 2 clusters). */
export type ClusteredCell = { readonly x: string | number; readonly y: string | number | null; readonly row: ClusteredEventRow | null };

/** The grid's cells read clustered by one axis. */
export type ClusteredGrid = {
  readonly cluster_axis: string;
  readonly rule: string;
  readonly cells: readonly ClusteredCell[];
};

/**
 * Reads each cell of a report grid clustered by `axis`: the cell's pairs (every condition with the cell's
 * x and y values) grouped by their value of `axis`, Durkalski's clustered McNemar and the CR2 interval
 * of the change, simultaneous (Bonferroni, 95%) over the cells with a test, Holm over them at q. The runs
 * come indexed by their own conditions (`indexRows`, or the report's columnar index).
 *
 * @throws {@link DiffError} (E_DIFF) when the runs are not paired, or `axis` is no axis of theirs or has one value.
 */
export function clusteredGrid(
  [before, after]: readonly [RunIndex, RunIndex],
  o: { x: string; y: string | null; event: string; axis: string; q: number; xValues: readonly (string | number)[]; yValues: readonly (string | number | null)[] },
): ClusteredGrid {
  const pairing = pairIndexes(before, after);
  if (!pairing.paired) throw new DiffError('E_DIFF', `--cluster ${o.axis} needs paired runs, and ${before.manifest.name} and ${after.manifest.name} are not (${pairing.reason ?? ''}); leave --cluster out.`);
  checkBinaryCluster(o.axis, pairing.axes, pairing.conditions);
  const keys: { x: string | number; y: string | number | null }[] = [];
  for (const yv of o.yValues) for (const xv of o.xValues) keys.push({ x: xv, y: yv });
  const groups = keys.map((k) => ({
    event: o.event,
    conditions: pairing.conditions.filter((c) => String(c.values[o.x]) === String(k.x) && (o.y === null || String(c.values[o.y]) === String(k.y))),
  }));
  const testable = groups.filter((g) => new Set(g.conditions.filter((c) => c.pairs.length > 0).map((c) => String(c.values[o.axis]))).size >= 2).length;
  const level = 1 - 0.05 / Math.max(1, testable);
  const rows = clusteredRows(groups, o.axis, o.q, level);
  return Object.freeze({
    cluster_axis: o.axis,
    rule: `clustered McNemar (Durkalski et al. 2003) per cell, pairs clustered by ${o.axis}; CR2 intervals at 95% simultaneous (Bonferroni) over the ${testable} cell${testable === 1 ? '' : 's'} with 2 or more clusters; Holm q ${o.q} over them`,
    cells: Object.freeze(keys.map((k, i) => Object.freeze({ ...k, row: rows[i] ?? null }))),
  });
}

/** The clustered grid as text lines: one row per y value, each cell `change [CR2 interval] p_holm`. */
export function formatClusteredGrid(grid: ReportGrid): string[] {
  const c = grid.clustered;
  if (c === undefined) return [];
  const table: string[][] = [[grid.y === null ? '' : `${grid.y} \\ ${grid.x}`, ...grid.x_values.map(String)]];
  const dp = printDecimals(grid.diff.threshold); // as the grid above it
  for (const yv of grid.y_values) {
    const line = [yv === null ? grid.x : String(yv)];
    for (const xv of grid.x_values) {
      const row = c.cells.find((cell) => cell.x === xv && cell.y === yv)?.row ?? null;
      const interval = row === null ? '' : row.interval === null ? 'no interval' : fmtInterval(row.interval, dp);
      line.push(row === null ? '-' : `${fmtChange(row.change, dp)} ${interval} p_holm ${fmtP(row.p_holm, grid.diff.q)} ${row.verdict}`);
    }
    table.push(line);
  }
  return ['', `clustered     by ${c.cluster_axis}: ${c.rule}`, '', ...textTable(table)];
}
