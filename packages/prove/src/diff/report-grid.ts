import { looksWords, UNPAIRED_LOOKS } from './sequential.js';
import { didYouMean } from '../internal/did-you-mean.js';
import { computeDiff } from './diff-episodes.js';
import { DiffError } from './diff-error.js';
import { resolveEvents } from './events.js';
import { declaredEvents, refuseSameRun } from './diff-input.js';
import { clusteredGrid, formatClusteredGrid, type ClusteredGrid } from './cluster-grid.js';
import { alignByIdentity, axisNames, pairIndexes, type ConditionPairs } from './pairing.js';
import { readCellsBySeed, type SeedCell } from './seed-cells.js';
import { readDiffColumns } from './diff-columns.js';
import { alignColumnsByIdentity } from './identity-columns.js';
import { columnsOfRows, groupByAxes, outcomeLabelsHeld, type RunColumns } from './run-columns.js';
import { indexColumns } from './index-columns.js';
import { outcomeCodes, REPLICATE_SPAN } from './run-index.js';
import { refuseClusteredSamples, refusePooledSamples, sampleAxisValues } from './same-sample-axes.js';
import { fmtChange, fmtInterval, printDecimals, textTable } from './text-table.js';
import { droppedLine, line, verdictCell } from './format-text.js';
import { columnsUnmatched, unmatchedLine, writtenOnward, type Unmatched } from './partial.js';
import { discordanceText } from './sentence.js';
import type { DiffManifest, DiffReport, DiffRow, DiffRun, IdentityPairing, TestMethod } from './types.js';
import { requireArgument } from 'poisson-core';

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
  /**
   * Read each cell with the anytime-valid test (`diff --sequential`) instead of the fixed-n one; default
   * false. A cell's discordant pairs are read in replicate order; a cell that pools several conditions
   * reads them condition by condition (an order fixed before the data, so the test stays valid).
   */
  readonly sequential?: boolean;
  /** As `diff --discordance` (`DiffOptions.discordance`): above 0, every cell's limits read psi^ + d. */
  readonly discordance?: number;
  /** An axis that clusters each cell's pairs: adds `clustered`, the clustered McNemar test and CR2 interval per cell. */
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
  /**
   * The (condition, replicate) pairs of one run without a partner in the other (replicates `extend` added
   * to one run, pairs one run lacks), when there are any: the cells do not compare them (diff's coverage).
   */
  readonly unmatched?: Unmatched;
  /**
   * Swept runs paired on their seeds whose cells pool several conditions: the most conditions one cell
   * pools, and the cells that pool more than one. Every condition runs replicate r on the same seed, so
   * such a cell counts a seed once per condition, as if its pairs were independent (see
   * {@link sharedSeedsText}).
   */
  readonly shared_seeds?: { readonly conditions: number; readonly cells: number };
  /** Each cell that pools conditions of a sweep, read with the seed as the unit (seed-cells.ts): its seeds, their test and the pooled pairs' p. */
  readonly seed_cells?: readonly SeedCell[];
};

/** The values of an axis, the declared ones first (those the runs hold), then the others as first met. */
function valuesOf(manifest: DiffManifest, axis: string, runs: readonly RunColumns[]): (string | number)[] {
  const axes = manifest.axes as Record<string, { values?: unknown }> | undefined;
  const declared = axes?.[axis]?.values;
  // The values in the order the episodes hold them (before's, then after's).
  const seen = new Set<string | number>();
  for (const run of runs) {
    const column = run.axes.get(axis);
    if (column === undefined) {
      if (run.length > 0) seen.add(undefined as unknown as string);
      continue;
    }
    const met = new Uint8Array(column.values.length);
    // Indexed: the for-of over the typed array was half of valuesOf's samples in a CPU profile of a report.
    const codes = column.codes;
    for (let i = 0; i < codes.length; i++) {
      const code = codes[i] as number;
      if (met[code] === 1) continue;
      met[code] = 1;
      seen.add(column.values[code] as string | number);
    }
  }
  const out: (string | number)[] = [];
  if (Array.isArray(declared)) for (const v of declared as (string | number)[]) if (seen.has(v)) out.push(v);
  for (const v of seen) if (!out.includes(v)) out.push(v);
  return out;
}

function cellLabel(x: string, xv: unknown, y: string | null, yv: unknown): string {
  return y === null ? `${x} ${String(xv)}` : [`${x} ${String(xv)}`, `${y} ${String(yv)}`].sort().join(' · ');
}

/** Every axis a run's manifest names (the columns the report reads besides the counts). */
function runAxes(manifest: DiffManifest): string[] {
  return Object.keys((manifest.axes as Record<string, unknown> | undefined) ?? {});
}

/**
 * The runs of a report as columns: rows given in memory (imported runs aligned by identity first) are
 * turned into columns; runs read by {@link readReportRuns} are columns already. `identity`: what the
 * alignment paired and left out (null unless both runs are imports), for the diff's warnings.
 */
function asColumns(
  before: DiffRun | RunColumns,
  after: DiffRun | RunColumns,
  extra: readonly string[],
): { readonly aligned: [RunColumns, RunColumns]; readonly original: [RunColumns, RunColumns]; readonly identity: IdentityPairing | null } {
  if (!isRows(before) && !isRows(after)) {
    // Imported runs (read with their identities) pair by identity within their own conditions, as rows do.
    const a = alignColumnsByIdentity(before, after);
    return { aligned: a === null ? [before, after] : [a.before, a.after], original: [before, after], identity: a?.identity ?? null };
  }
  if (!isRows(before) || !isRows(after)) throw new TypeError('reportGrid: give both runs as rows, or both as read by readReportRuns');
  const codes = outcomeCodes();
  const axesOf = (r: DiffRun): string[] => [...new Set([...runAxes(r.manifest), ...axisNames(r.manifest), ...extra])];
  const original: [RunColumns, RunColumns] = [columnsOfRows(before, codes, axesOf(before)), columnsOfRows(after, codes, axesOf(after))];
  // Imported runs pair by identity within their own conditions, before the cells pool them.
  const a = alignByIdentity(before, after);
  if (a.before === before && a.after === after) return { aligned: original, original, identity: a.identity };
  return { aligned: [columnsOfRows(a.before, codes, axesOf(a.before)), columnsOfRows(a.after, codes, axesOf(a.after))], original, identity: a.identity };
}

function isRows(run: DiffRun | RunColumns): run is DiffRun {
  return Array.isArray((run as DiffRun).rows);
}

/**
 * Slots numbered within each cell: a cell's episodes keep the order of their pair keys (original
 * condition's ordinal, then replicate) with the slots of other cells left out, so each cell's typed
 * arrays hold its own pairs only (the pooled keys of {@link indexColumns} give every cell arrays as long
 * as all cells together). Walking a cell's slots meets its pairs in the same order, so every count and
 * statistic is the same. Null (keep the pooled slots, whose replicate numbers the messages quote) when a
 * seed differs between the runs, a run holds a pair twice, a replicate is not an integer in [0, 2^26),
 * or a condition falls in two cells.
 */
function cellSlots(
  runs: readonly [RunColumns, RunColumns],
  cellOf: (run: RunColumns, i: number) => number,
  cellLabels: (run: RunColumns) => readonly string[],
  ordinalOf: (run: RunColumns, i: number) => number,
): ((run: RunColumns, i: number) => number) | null {
  let ordinals = 0;
  for (const run of runs) for (let i = 0; i < run.length; i++) ordinals = Math.max(ordinals, ordinalOf(run, i) + 1);
  const maxR = new Float64Array(ordinals).fill(-1);
  const cellOfOrdinal: (string | undefined)[] = new Array<string | undefined>(ordinals);
  for (const run of runs) {
    const labels = cellLabels(run);
    for (let i = 0; i < run.length; i++) {
      const r = run.replicate[i] as number;
      if (!(Number.isInteger(r) && r >= 0 && r < REPLICATE_SPAN)) return null;
      const o = ordinalOf(run, i);
      const cell = labels[cellOf(run, i)] as string;
      if (cellOfOrdinal[o] === undefined) cellOfOrdinal[o] = cell;
      else if (cellOfOrdinal[o] !== cell) return null;
      if (r > (maxR[o] as number)) maxR[o] = r;
    }
  }
  // Per ordinal: its first slot within its cell (ordinals ascending), and its place in the seed table.
  const offset = new Float64Array(ordinals);
  const next = new Map<string, number>();
  const base = new Float64Array(ordinals + 1);
  for (let o = 0; o < ordinals; o++) {
    const cell = cellOfOrdinal[o];
    const width = (maxR[o] as number) + 1;
    base[o + 1] = (base[o] as number) + width;
    if (cell === undefined) continue;
    const at = next.get(cell) ?? 0;
    offset[o] = at;
    next.set(cell, at + width);
  }
  const seen = [new Uint8Array(base[ordinals] as number), new Uint8Array(base[ordinals] as number)];
  const seeds = new Float64Array(base[ordinals] as number);
  for (const [k, run] of runs.entries()) {
    const held = seen[k] as Uint8Array;
    for (let i = 0; i < run.length; i++) {
      const j = (base[ordinalOf(run, i)] as number) + (run.replicate[i] as number);
      if (held[j] === 1) return null;
      held[j] = 1;
      const seed = run.seed === null ? Number.NaN : (run.seed[i] as number);
      if (k === 0) seeds[j] = seed;
      else if ((seen[0] as Uint8Array)[j] === 1 && seeds[j] !== seed) return null;
    }
  }
  return (run, i) => (offset[ordinalOf(run, i)] as number) + (run.replicate[i] as number);
}

/** A run's manifest with the report's cells as its conditions (the x and y axes only). */
function cellManifest(manifest: DiffManifest, x: string, y: string | null): DiffManifest {
  const axes = manifest.axes as Record<string, unknown> | undefined;
  return { ...manifest, axes: y === null ? { [x]: axes?.[x] } : { [x]: axes?.[x], [y]: axes?.[y] }, conditions: undefined };
}

/**
 * The change per cell of the x-by-y grid (PROVE.md, `report`): the diff re-read with the cells as its
 * conditions — a cell pools the conditions that share its x and y values (every condition, when the
 * other axes have one value each) — so each cell has the change, its Tango interval (simultaneous over
 * the cells), its p-values over the cells, its limits and its verdict.
 *
 * @param before - run A: rows (`readRunForDiff`), or columns (`readReportRuns`).
 * @param after - run B, as A.
 * @param options - `{ x, y?, event?, q?, power?, method?, sequential?, discordance?, cluster? }`.
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
export function reportGrid(before: DiffRun | RunColumns, after: DiffRun | RunColumns, options: ReportOptions): ReportGrid {
  requireArgument('reportGrid', 'before', before, 'object', 'a run ({ manifest, rows }) or the columns readReportRuns returns');
  requireArgument('reportGrid', 'after', after, 'object', 'a run ({ manifest, rows }) or the columns readReportRuns returns');
  requireArgument('reportGrid', 'options', options, 'object', 'an object with x');
  const { aligned, original, identity } = asColumns(before, after, [options.x, ...(options.y !== undefined ? [options.y] : []), ...(options.cluster !== undefined ? [options.cluster] : [])]);
  const [A, B] = original;
  const x = options.x;
  const y = options.y ?? null;
  const axes = [...new Set([...axisNames(A.manifest), ...axisNames(B.manifest)])];
  const problems: string[] = [];
  for (const [flag, axis] of [['--x', x], ['--y', y]] as const) {
    if (axis !== null && !axes.includes(axis)) problems.push(`${flag} ${axis} is not an axis of these runs${didYouMean(axis, axes)}; their axes are ${axes.join(', ') || 'none'}.`);
  }
  if (y !== null && y === x) problems.push(`--x and --y are both ${x}; name two different axes, or leave out --y for one row.`);
  if (problems.length > 0) throw new DiffError('E_DIFF', problems);
  // A cell never pools two values of a same-sample axis (lm-eval's filter: each document once per filter).
  const sampleValues = sampleAxisValues(A.manifest, B.manifest);
  refusePooledSamples(sampleValues, y === null ? [x] : [x, y], { pools: "The grid's cells", fix: (a) => `Add --y ${a} (a row per ${a}), or --x ${a}.`, code: 'E_DIFF' });
  if (options.cluster !== undefined) refuseClusteredSamples(sampleValues, options.cluster);
  const labels = [...new Set([...outcomeLabelsHeld(A), ...outcomeLabelsHeld(B)])].sort();
  // An event the runs' specs declared is tested as a table of none when no episode ended in it (as diff
  // tests it): view draws a heatmap for each of the diff's events, declared ones too.
  const { events } = resolveEvents(labels, options.event === undefined ? undefined : [options.event], declaredEvents(A, B).events ?? []);
  if (events.length > 1) {
    throw new DiffError(
      'E_EVENT',
      `The runs hold several failure events (${events.join(', ')}) and a grid shows one; name it with --event, e.g. --event ${events[0] ?? ''}.`,
    );
  }
  const event = events[0] as string;
  const conditions = [...new Set([...A.conditions, ...B.conditions])].sort();
  const ordinal = new Map(conditions.map((c, i) => [c, i]));
  // A cell pools the conditions that share its x and y values; a replicate index then recurs across
  // them, so the pair key becomes (cell, original condition's ordinal x 2^26 + replicate index), the
  // same in both runs.
  type Cells = { readonly codes: Uint32Array; readonly labels: string[] };
  const cellOf = new Map<RunColumns, { cells: Cells; ordinals: Float64Array }>();
  for (const run of aligned) {
    const ordinals = new Float64Array(run.conditions.length);
    run.conditions.forEach((c, k) => (ordinals[k] = ordinal.get(c) ?? 0));
    const cells = groupByAxes(run, y === null ? [x] : [x, y], ([xv, yv]) => cellLabel(x, xv, y, y === null ? null : yv));
    cellOf.set(run, { cells, ordinals });
  }
  // The callbacks below are asked row by row, run after run: the run's layout is looked up when the run
  // changes (a Map lookup a row, three a row in all, took ~0.2 s of a 10^6-episode report).
  let lastRun: RunColumns | null = null;
  let last: { cells: Cells; ordinals: Float64Array } | undefined;
  const layoutOf = (run: RunColumns): { cells: Cells; ordinals: Float64Array } => {
    if (run !== lastRun) {
      lastRun = run;
      last = cellOf.get(run);
    }
    return last as { cells: Cells; ordinals: Float64Array };
  };
  const label = (run: RunColumns, i: number): string => {
    const { cells } = layoutOf(run);
    return cells.labels[cells.codes[i] as number] as string;
  };
  const replicate = (run: RunColumns, i: number): number => (layoutOf(run).ordinals[run.condition[i] as number] as number) * REPLICATE_SPAN + (run.replicate[i] as number);
  const local = cellSlots(aligned, (run, i) => layoutOf(run).cells.codes[i] as number, (run) => layoutOf(run).cells.labels, (run, i) => layoutOf(run).ordinals[run.condition[i] as number] as number);
  const [ia, ib] = indexColumns(aligned, [cellManifest(aligned[0].manifest, x, y), cellManifest(aligned[1].manifest, x, y)], label, replicate, local);
  // With the identity pairing, as diff computes it: its warnings and counts say which samples were left out.
  const diff = computeDiff(ia, ib, { events: [event], q: options.q, power: options.power, method: options.method, sequential: options.sequential, discordance: options.discordance }, { fragility: false, identity });
  const xValues = valuesOf(A.manifest, x, original);
  const yValues: (string | number | null)[] = y === null ? [null] : valuesOf(A.manifest, y, original);
  const byLabel = new Map(diff.rows.map((r) => [r.condition, r]));
  const cells: ReportCell[] = [];
  for (const yv of yValues) for (const xv of xValues) cells.push(Object.freeze({ x: xv, y: yv, row: byLabel.get(cellLabel(x, xv, y, yv)) ?? null }));
  const clustered = options.cluster === undefined
    ? undefined
    : // The pairs the cells compare: imported runs aligned by their samples' identity, as above.
      clusteredGrid(indexColumns(aligned, [aligned[0].manifest, aligned[1].manifest], (run, i) => run.conditions[run.condition[i] as number] as string, (run, i) => run.replicate[i] as number), { x, y, event, axis: options.cluster, q: diff.q, xValues, yValues });
  // Imported runs pair by their samples' identity, and the diff's warnings name what was left unpaired.
  // Runs that are not paired compare every episode with an outcome: none lacks a partner.
  const u = identity === null && diff.method.paired ? columnsUnmatched(aligned[0], aligned[1]) : null;
  const unmatched = u !== null && (u.before > 0 || u.after > 0) ? u : undefined;
  // Swept runs pair on seeds shared by every condition: a cell pooling several conditions counts a seed
  // once per condition. Imports pair by their samples' identity, each condition its own samples. Such
  // cells are read with the seed as the unit too (seed-cells.ts), and the words decided again.
  const shared = identity === null && diff.method.paired ? sharedSeeds(aligned, (run) => (cellOf.get(run) as { cells: Cells }).cells) : undefined;
  let read = diff;
  let readCells = cells;
  let seedCells: readonly SeedCell[] = [];
  if (shared !== undefined) {
    const pairing = pairIndexes(...indexColumns(aligned, [aligned[0].manifest, aligned[1].manifest], (run, i) => run.conditions[run.condition[i] as number] as string, (run, i) => run.replicate[i] as number));
    const byCell = new Map<string, ConditionPairs[]>();
    for (const c of pairing.conditions) {
      const key = cellLabel(x, c.values[x] as string | number, y, y === null ? null : (c.values[y] as string | number));
      byCell.set(key, [...(byCell.get(key) ?? []), c]);
    }
    // A run that is not complete: under --sequential each cell reads its seeds in order up to the first
    // seed some condition of the cell has not written in both runs (seed-cells.ts), as diff's rows do.
    const settled = aligned.some((run) => writtenOnward(run.manifest));
    // Conditions one run holds no episode of yet are not in the pairing's conditions: counted per cell
    // (each one's cell read off the run that holds it).
    const notBegun = new Map<string, number>();
    const waiting = new Set([...pairing.only_before, ...pairing.only_after]);
    if (diff.sequential && settled && waiting.size > 0) {
      const cellOfCondition = new Map<string, string>();
      for (const run of aligned) {
        for (let i = 0; i < run.condition.length; i++) {
          const c = run.conditions[run.condition[i] as number] as string;
          if (waiting.has(c) && !cellOfCondition.has(c)) cellOfCondition.set(c, label(run, i));
        }
      }
      for (const key of cellOfCondition.values()) notBegun.set(key, (notBegun.get(key) ?? 0) + 1);
    }
    const bySeed = readCellsBySeed(diff, byCell, settled, notBegun);
    read = bySeed.diff;
    seedCells = bySeed.seeds;
    const rowOf = new Map(read.rows.map((r) => [r.condition, r]));
    readCells = cells.map((c) => Object.freeze({ ...c, row: c.row === null ? null : (rowOf.get(c.row.condition) ?? c.row) }));
  }
  return Object.freeze({
    x,
    y,
    event,
    x_values: Object.freeze(xValues),
    y_values: Object.freeze(yValues),
    cells: Object.freeze(readCells),
    diff: read,
    ...(clustered !== undefined ? { clustered } : {}),
    ...(unmatched !== undefined ? { unmatched } : {}),
    ...(shared !== undefined ? { shared_seeds: shared } : {}),
    ...(seedCells.length > 0 ? { seed_cells: Object.freeze(seedCells) } : {}),
  });
}

/**
 * The most conditions one cell pools (over both runs' episodes) and the cells that pool more than one,
 * or undefined when every cell holds one condition.
 */
function sharedSeeds(runs: readonly RunColumns[], cellsOf: (run: RunColumns) => { readonly codes: Uint32Array; readonly labels: readonly string[] }): { conditions: number; cells: number } | undefined {
  const byCell = new Map<string, Set<string>>();
  for (const run of runs) {
    // A cell by its label: its number is the run's own (cells numbered in the order of their first
    // episode in that run), and two runs that hold their cells in another order number them apart
    // (keyed by number, two cells of one condition each read as one pooling two; fixed 2026-12-07).
    const { codes, labels } = cellsOf(run);
    // Each condition lies in one cell: its first episode says which.
    const cellOfCondition = new Int32Array(run.conditions.length).fill(-1);
    for (let i = 0; i < run.length; i++) {
      const k = run.condition[i] as number;
      if (cellOfCondition[k] === -1) cellOfCondition[k] = codes[i] as number;
    }
    cellOfCondition.forEach((cell, k) => {
      if (cell === -1) return;
      const key = labels[cell] as string;
      const set = byCell.get(key) ?? new Set<string>();
      set.add(run.conditions[k] as string);
      byCell.set(key, set);
    });
  }
  const sizes = [...byCell.values()].map((s) => s.size);
  const most = Math.max(0, ...sizes);
  return most > 1 ? Object.freeze({ conditions: most, cells: sizes.filter((n) => n > 1).length }) : undefined;
}

/**
 * The `seeds` line of a grid whose cells pool conditions of swept runs ({@link ReportGrid}'s
 * `shared_seeds`): why those cells are read with the seed as the unit, and how (seed-cells.ts). A review
 * of the sixth session of 2026-12-06: a noisy target whose outcome follows the seed read `significant
 * change` in 6 of 15 comparisons of identical runs with `report --x strictness` (3 conditions a cell;
 * 0.177 of the time in simulation at q 0.05), where `diff` read none.
 */
export function sharedSeedsText(s: { readonly conditions: number; readonly cells: number }, sequential = false): string {
  const one = s.cells === 1;
  const shown = sequential ? 'the betting confidence sequence for the change per pair with the seed as the unit' : "the CR2 interval of the change widened to the seed table's Tango interval";
  return `${s.cells} cell${one ? '' : 's'} pool${one ? 's' : ''} up to ${s.conditions} conditions that ran on the same seeds, whose pairs of one seed are not independent: ${one ? 'it is' : 'each is'} read with the seed as the unit as well, on one pair a seed (a seed rose when its pairs rose more often than they fell): McNemar's test over the seeds (the larger of its p and the pooled pairs', in the direction more seeds changed), their limits, and an interval over the seeds, shown (${shown}); so it counts only when its seeds show the change, and reads unchanged only when they could have shown, and rule out, a change of the threshold; diff tests each condition on its own seeds`;
}

/**
 * Reads runs for {@link reportGrid}, column by column: condition, replicate, seed, outcome, t, score
 * and the axes, with no row object per episode; an imported run (which pairs by the samples' identity)
 * also the identity and input hash of its meta (`readIdentities`), nothing else of meta.
 *
 * @param store - the store directory.
 * @param refs - run refs.
 * @param read - `{ partial?, verb? }` as `readRunForDiff`.
 * @returns the runs, in the order of `refs`.
 * @throws RefError, DamagedRunError, ProveError `E_PARTIAL` (exit 2) as `readRunForDiff`; DiffError `E_DIFF` (exit 2)
 *   when two of the refs name one run.
 */
export async function readReportRuns(store: string, refs: readonly string[], read: { readonly partial?: boolean; readonly verb?: string } = {}): Promise<RunColumns[]> {
  requireArgument('readReportRuns', 'store', store, 'string', 'the store directory');
  requireArgument('readReportRuns', 'refs', refs, 'array', 'an array of run refs');
  const codes = outcomeCodes();
  const runs = await Promise.all(refs.map((r) => readDiffColumns(store, r, codes, { partial: read.partial === true, verb: read.verb ?? 'report' })));
  // Any two refs that name one run: a panel of a run against itself, or a candidate read twice.
  for (let i = 1; i < runs.length; i++) for (let j = 0; j < i; j++) refuseSameRun((runs[j] as RunColumns).manifest, (runs[i] as RunColumns).manifest);
  return runs;
}

/**
 * The grid as text: one row per y value, one column per x value, each cell `change [lower, upper]
 * verdict` (and `flagged (BH)` as diff's table marks a verdict: `verdictCell`; what held it back is in diff's table), under a heading naming the runs, the event and the rule, and the diff's warnings as diff's
 * text words them (`warning` lines).
 *
 * @param grid - from {@link reportGrid}.
 * @returns the text, ending in a newline.
 */
export function formatGridText(grid: ReportGrid): string {
  requireArgument('formatGridText', 'grid', grid, 'object', 'the grid reportGrid returns');
  const d = grid.diff;
  const head = [
    `${d.verdict}  change in the rate of ${grid.event}, ${d.after.name} against ${d.before.name}, per ${grid.x}${grid.y === null ? '' : ` x ${grid.y}`}`,
    `cells         change [interval] verdict; ${d.intervals_rule.replace(/^on each condition's change: /, 'intervals ')}; ${d.verdict_rule.replace(/^the verdict counts/, 'counted')}`,
  ];
  // Runs extended after a look: the cells' fixed-n verdicts overstate the evidence if read at each size.
  const looks = looksWords(d.looks.before, d.looks.after, d.sequential, d.method.paired ? 'report --sequential reads it anytime-valid' : UNPAIRED_LOOKS);
  if (looks !== null) head.push(`looks         ${looks}`);
  // How the cells' limits read the discordance, when it was planned or given or is assumed, in diff's words.
  const discordance = discordanceText(d);
  if (discordance !== null) head.push(line('discordance', discordance));
  // What the diff warned of (samples left unpaired, different scorers, ...), in diff's words.
  for (const w of d.warnings) head.push(line('warning', w));
  if (grid.shared_seeds !== undefined) head.push(line('seeds', sharedSeedsText(grid.shared_seeds, d.sequential)));
  // Pairs one run has and the other has not (an extended run): not in the cells, and said so; and the
  // pairs in both whose episode in one has no outcome, as diff's text says them.
  const coverage = grid.unmatched === undefined ? null : unmatchedLine(grid.unmatched, d.before.name, d.after.name);
  if (coverage !== null) head.push(coverage.replace('(--full lists', '(diff --full lists').replace('and compared;', 'and compared when both hold an outcome;'));
  const dropped = droppedLine(d);
  if (dropped !== null) head.push(dropped.replace('left out of the tables', 'left out of the cells'));
  head.push('');
  const table: string[][] = [[grid.y === null ? '' : `${grid.y} \\ ${grid.x}`, ...grid.x_values.map(String)]];
  for (const yv of grid.y_values) {
    const line = [yv === null ? grid.x : String(yv)];
    for (const xv of grid.x_values) {
      const row = grid.cells.find((c) => c.x === xv && c.y === yv)?.row ?? null;
      line.push(row === null ? '-' : `${fmtChange(row.change, printDecimals(d.threshold))} ${fmtInterval(row.interval, printDecimals(d.threshold))} ${verdictCell(row, false)}`);
    }
    table.push(line);
  }
  const clustered = grid.clustered === undefined ? [] : formatClusteredGrid(grid);
  return `${[...head, ...textTable(table), ...clustered].join('\n')}\n`;
}
