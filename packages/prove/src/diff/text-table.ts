/**
 * A section of a diff report as the text diff and the view page both draw it: labelled lines (a label
 * of '' continues the line above), then a table, its header row first; `numeric[i]` says whether column i
 * holds figures (right-aligned on the page).
 */
export type ReportSection = {
  readonly lines: readonly (readonly [label: string, text: string])[];
  readonly table: readonly (readonly string[])[];
  readonly numeric: readonly boolean[];
};

/**
 * Lays out rows of cells as left-aligned columns separated by two spaces (the last column unpadded).
 *
 * @param rows - the header row first, then the body; every row the same length.
 * @returns one string per row.
 */
export function textTable(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - [...cell].length)))
      .join('  ')
      .trimEnd(),
  );
}

/**
 * Formats a p-value: 3 significant digits, or scientific notation below 0.001. Beside `q` (the rate it
 * is held to), a p that is not q but would print as q gets the digits that put it on its side: 0.0500163
 * and 0.0499832 both printed `0.0500` at q 0.05, one counting and one not; they print `0.05002` and
 * `0.04998`.
 */
export function fmtP(p: number, q?: number): string {
  if (Number.isNaN(p)) return '-';
  // A double cannot hold a p this small with its digits (subnormal), or at all (0 after underflow: the
  // exact McNemar p of 0 rises and 1,075 falls is 2 x 0.5^1075): no test gives a p of 0.
  if (p < 1e-300) return '< 1e-300';
  const at = (digits: number): string => (p < 0.001 ? p.toExponential(digits - 1) : p.toPrecision(digits));
  let digits = 3;
  if (q !== undefined && p !== q) while (Number(at(digits)) === q && digits < 17) digits++;
  return at(digits);
}

/** The most decimals a small nonzero change or bound is printed to ({@link fmtChange}, {@link fmtInterval}). */
const FINEST = 12;

/**
 * Formats a change with its sign: "+0.250", "-0.125", "0.000" (to `decimals`, default 3: {@link printDecimals}).
 * A nonzero change that would print as 0 is printed to its first significant digit ("-0.0004"): a
 * change the verdict counts read "0.000" beside `lower`.
 */
export function fmtChange(x: number, decimals = 3): string {
  if (Number.isNaN(x)) return '-';
  let d = decimals;
  while (x !== 0 && Number(x.toFixed(d)) === 0 && d < FINEST) d++;
  const s = x.toFixed(d);
  if (Number(s) === 0) return (0).toFixed(decimals);
  return x > 0 ? `+${s}` : s;
}

/**
 * Formats a rate (0 to 1) to `decimals` (default 3: {@link printDecimals}), "-" where no pair gives one
 * (NaN), as the text diff, several candidates' cells and the page print the before and after columns.
 */
export function fmtRate(x: number, decimals = 3): string {
  return Number.isFinite(x) ? x.toFixed(decimals) : '-';
}

/** The most decimals {@link printDecimals} gives. */
const MAX_DECIMALS = 8;

/**
 * The decimals a diff prints its rates, changes and interval bounds to beside `threshold`: 3, or the
 * threshold's own when it has more (0.0125: 4; up to 8). At three decimals, an interval inside ±0.0125
 * (not held back) printed [-0.013, +0.013], past the threshold the sentence printed beside it.
 */
export function printDecimals(threshold: number): number {
  if (!Number.isFinite(threshold)) return 3;
  for (let d = 3; d < MAX_DECIMALS; d++) if (Number(threshold.toFixed(d)) === threshold) return d;
  return MAX_DECIMALS;
}

/** The largest multiple of 10^-d (as the double k / 10^d) at or below x; x itself when it is one. */
function floorAt(x: number, scale: number): number {
  let k = Math.floor(x * scale);
  // x * scale can be off by an ulp: settle k on the exact comparison of doubles.
  while ((k + 1) / scale <= x) k++;
  while (k / scale > x) k--;
  return k / scale;
}

/** The smallest multiple of 10^-d (as the double k / 10^d) at or above x; x itself when it is one. */
function ceilAt(x: number, scale: number): number {
  let k = Math.ceil(x * scale);
  while ((k - 1) / scale >= x) k--;
  while (k / scale < x) k++;
  return k / scale;
}

/**
 * An interval on a change as printed: `[lower, upper]`, each bound as {@link fmtChange} prints a change,
 * but rounded outward to the thousandth (or to `decimals`: {@link printDecimals}; the lower bound down, the upper up), so that the printed
 * interval always holds the computed one. The verdict holds the computed bounds against ±threshold
 * (verdict.ts, `heldBackBy`); rounded to the nearest, an upper bound of 0.10029 printed `+0.100` beside
 * "held back by an interval reaching past ±0.100". With outward rounding, for a threshold of three
 * decimals (or printed to the threshold's decimals) the printed interval lies inside ±threshold exactly when the verdict does not hold the
 * condition back by its interval. A bound already on the grid (0.1 = 100 / 1000) stays where it is.
 * `--json` keeps the computed bounds.
 *
 * A bound on the far side of 0 that would round to 0 keeps its side ({@link sideOfZero}): an interval
 * that excludes 0 is never printed as one that reaches it.
 *
 * @param i - the interval (NaN bounds print `-`).
 * @returns `[+0.001, +0.101]` for [0.0015567, 0.1002882]; `[-0.001, -0.0003]` for [-0.00052, -0.00031].
 */
export function fmtInterval(i: { readonly lower: number; readonly upper: number }, decimals = 3): string {
  const scale = 10 ** decimals;
  // Beyond 2^52 grid points no double lies between two of them (and k + 1 === k): printed as they are.
  const onGrid = (x: number): boolean => Number.isFinite(x) && Math.abs(x) * scale < 2 ** 52;
  const lo = onGrid(i.lower) ? floorAt(i.lower, scale) : i.lower;
  const hi = onGrid(i.upper) ? ceilAt(i.upper, scale) : i.upper;
  return `[${lo === 0 && i.lower > 0 ? sideOfZero(i.lower, decimals) : fmtChange(lo, decimals)}, ${hi === 0 && i.upper < 0 ? sideOfZero(i.upper, decimals) : fmtChange(hi, decimals)}]`;
}

/**
 * A bound that excludes 0 but rounds outward to 0 at `decimals` (an upper bound of -0.0003 at three),
 * printed on its side of 0: rounded outward (toward 0) to the first decimal that keeps it off 0.
 */
function sideOfZero(x: number, decimals: number): string {
  for (let d = decimals + 1; d <= FINEST; d++) {
    const scale = 10 ** d;
    const r = x > 0 ? floorAt(x, scale) : ceilAt(x, scale);
    if (r !== 0) return fmtChange(r, d);
  }
  return fmtChange(x, FINEST);
}

/**
 * A {@link ReportSection} as the text diff prints it: an empty line, its lines (labels padded to 14
 * characters), then its table laid out by {@link textTable}.
 *
 * @param section - the section.
 * @param layout - `gap` (default true): an empty line between the lines and the table; `indent`: put
 *   before the table's first column (the clustered section's table sits under its lines, indented).
 * @returns one string per line.
 */
export function sectionLines(section: ReportSection, layout: { readonly gap?: boolean; readonly indent?: string } = {}): string[] {
  const indent = layout.indent ?? '';
  const table = section.table.map((row) => row.map((cell, i) => (i === 0 ? indent + cell : cell)));
  return ['', ...section.lines.map(([label, text]) => `${label.padEnd(14)}${text}`), ...(layout.gap === false ? [] : ['']), ...textTable(table)];
}
