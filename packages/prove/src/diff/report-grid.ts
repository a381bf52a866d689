import { didYouMean } from '../internal/did-you-mean.js';
import { computeDiff } from './diff-episodes.js';
import { DiffError } from './diff-error.js';
import { resolveEvents } from './events.js';
import { clusteredGrid, formatClusteredGrid, type ClusteredGrid } from './cluster-grid.js';
import { alignByIdentity, axisNames } from './pairing.js';
import { fmtChange, textTable } from './text-table.js';
import type { DiffEpisode, DiffManifest, DiffReport, DiffRow, DiffRun, TestMethod } from './types.js';

/** Options of {@link reportGrid}. */
export type ReportOptions = {
  /** The axis across (columns). */
  readonly x: string;
  /** The axis down (rows); absent for a one-row grid. */
  readonly y?: string;
  /** The event; inferred as `diff` does when absent, and then it must be exactly one. */
  readonly event?: string;
  readonly q?: number;
  readonly power?: number;
  readonly method?: TestMethod;
  /** An axis that clusters each cell's pairs: adds `clustered`, the clustered McNemar test and CR1 interval per cell. */
  readonly cluster?: string;
};

/** One cell of the grid: its x and y values and its test (null when no condition has those values). */
export type ReportCell = { readonly x: string | number; readonly y: string | number | null; readonly row: DiffRow | null };

/** The change per cell of an x-by-y grid, with the diff over the cells it was read from. */
export type ReportGrid = {
  readonly x: string;
  readonly y: string | null;
  readonly event: string;
  readonly x_values: readonly (string | number)[];
  readonly y_values: readonly (string | number | null)[];
  readonly cells: readonly ReportCell[];
  /** The diff whose conditions are the cells (conditions sharing a cell's x and y values pooled). */
  readonly diff: DiffReport;
  /** With `cluster`: each cell's pairs read clustered by that axis. */
  readonly clustered?: ClusteredGrid;
};

function valuesOf(manifest: DiffManifest, axis: string, rows: readonly DiffEpisode[]): (string | number)[] {
  const axes = manifest.axes as Record<string, { values?: unknown }> | undefined;
  const declared = axes?.[axis]?.values;
  const seen = new Set(rows.map((r) => r[axis] as string | number));
  const out: (string | number)[] = [];
  if (Array.isArray(declared)) for (const v of declared as (string | number)[]) if (seen.has(v)) out.push(v);
  for (const v of seen) if (!out.includes(v)) out.push(v);
  return out;
}

function cellLabel(x: string, xv: unknown, y: string | null, yv: unknown): string {
  return y === null ? `${x} ${String(xv)}` : [`${x} ${String(xv)}`, `${y} ${String(yv)}`].sort().join(' · ');
}

function regroup(run: DiffRun, x: string, y: string | null, ordinal: ReadonlyMap<string, number>): DiffRun {
  const axes = run.manifest.axes as Record<string, unknown> | undefined;
  const manifest: DiffManifest = {
    ...run.manifest,
    axes: y === null ? { [x]: axes?.[x] } : { [x]: axes?.[x], [y]: axes?.[y] },
    conditions: undefined,
  };
  // A cell pools the conditions that share its x and y values; a replicate index then recurs across
  // them, so the pair key becomes (cell, original condition's ordinal x 2^26 + replicate index), the
  // same in both runs.
  const rows = run.rows.map((r) => ({
    ...r,
    condition: cellLabel(x, r[x], y, y === null ? null : r[y]),
    replicate_index: (ordinal.get(r.condition) ?? 0) * 2 ** 26 + Number(r.replicate_index),
  }));
  return { manifest, rows };
}

/**
 * The change per cell of the x-by-y grid (PROVE.md, `report`): the diff re-read with the cells as its
 * conditions — a cell pools the conditions that share its x and y values (every condition, when the
 * other axes have one value each) — so each cell has the change, its Tango interval (simultaneous over
 * the cells), its p-values over the cells, its limits and its verdict.
 *
 * @param before - run A.
 * @param after - run B.
 * @param options - `{ x, y?, event?, q?, power?, method? }`.
 * @returns the grid, frozen.
 * @throws {@link DiffError} (exit 2) for an axis neither run has, or when the event is not given and
 *   none, or several, can be inferred (the message lists them and asks for --event).
 * @example
 * ```ts
 * const g = reportGrid(a, b, { x: 'slack', y: 'horizon', event: 'failed' });
 * g.cells[0].row?.change; // -0.25
 * ```
 * @see PROVE.md, "The CLI" (`report`).
 */
export function reportGrid(before: DiffRun, after: DiffRun, options: ReportOptions): ReportGrid {
  // Imported runs pair by identity within their own conditions, before the cells pool them.
  const aligned = alignByIdentity(before, after);
  const x = options.x;
  const y = options.y ?? null;
  const axes = [...new Set([...axisNames(before.manifest), ...axisNames(after.manifest)])];
  const problems: string[] = [];
  for (const [flag, axis] of [['--x', x], ['--y', y]] as const) {
    if (axis !== null && !axes.includes(axis)) problems.push(`${flag} ${axis} is not an axis of these runs${didYouMean(axis, axes)}; their axes are ${axes.join(', ') || 'none'}.`);
  }
  if (y !== null && y === x) problems.push(`--x and --y are both ${x}; name two different axes, or leave out --y for one row.`);
  if (problems.length > 0) throw new DiffError('E_DIFF', problems);
  const labels = [...new Set([...before.rows, ...after.rows].map((r) => r.outcome).filter((o): o is string => typeof o === 'string'))].sort();
  const { events } = resolveEvents(labels, options.event === undefined ? undefined : [options.event]);
  if (events.length > 1) {
    throw new DiffError(
      'E_EVENT',
      `The runs hold several failure events (${events.join(', ')}) and a grid shows one; name it with --event, e.g. --event ${events[0] ?? ''}.`,
    );
  }
  const event = events[0] as string;
  const conditions = [...new Set([...before.rows, ...after.rows].map((r) => r.condition))].sort();
  const ordinal = new Map(conditions.map((c, i) => [c, i]));
  const diff = computeDiff(regroup(aligned.before, x, y, ordinal), regroup(aligned.after, x, y, ordinal), { events: [event], q: options.q, power: options.power, method: options.method }, { fragility: false });
  const xValues = valuesOf(before.manifest, x, [...before.rows, ...after.rows]);
  const yValues: (string | number | null)[] = y === null ? [null] : valuesOf(before.manifest, y, [...before.rows, ...after.rows]);
  const byLabel = new Map(diff.rows.map((r) => [r.condition, r]));
  const cells: ReportCell[] = [];
  for (const yv of yValues) for (const xv of xValues) cells.push(Object.freeze({ x: xv, y: yv, row: byLabel.get(cellLabel(x, xv, y, yv)) ?? null }));
  const clustered = options.cluster === undefined ? undefined : clusteredGrid(before, after, { x, y, event, axis: options.cluster, q: options.q ?? 0.05, xValues, yValues });
  return Object.freeze({ x, y, event, x_values: Object.freeze(xValues), y_values: Object.freeze(yValues), cells: Object.freeze(cells), diff, ...(clustered !== undefined ? { clustered } : {}) });
}

/**
 * The grid as text: one row per y value, one column per x value, each cell `change [lower, upper]
 * verdict`, under a heading naming the runs, the event and the rule.
 *
 * @param grid - from {@link reportGrid}.
 * @returns the text, ending in a newline.
 */
export function formatGridText(grid: ReportGrid): string {
  const d = grid.diff;
  const head = [
    `${d.verdict}  change in the rate of ${grid.event}, ${d.after.name} against ${d.before.name}, per ${grid.x}${grid.y === null ? '' : ` x ${grid.y}`}`,
    `cells         change [interval] verdict; ${d.intervals_rule.replace(/^on each condition's change: /, 'intervals ')}; ${d.verdict_rule.replace(/^the verdict counts/, 'counted')}`,
    '',
  ];
  const table: string[][] = [[grid.y === null ? '' : `${grid.y} \\ ${grid.x}`, ...grid.x_values.map(String)]];
  for (const yv of grid.y_values) {
    const line = [yv === null ? grid.x : String(yv)];
    for (const xv of grid.x_values) {
      const row = grid.cells.find((c) => c.x === xv && c.y === yv)?.row ?? null;
      line.push(row === null ? '-' : `${fmtChange(row.change)} [${fmtChange(row.interval.lower)}, ${fmtChange(row.interval.upper)}] ${row.verdict}`);
    }
    table.push(line);
  }
  const clustered = grid.clustered === undefined ? [] : formatClusteredGrid(grid);
  return `${[...head, ...textTable(table), ...clustered].join('\n')}\n`;
}
