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

/** Formats a p-value: 3 significant digits, or scientific notation below 0.001. */
export function fmtP(p: number): string {
  if (Number.isNaN(p)) return '-';
  // A double cannot hold a p this small with its digits (subnormal), or at all (0 after underflow: the
  // exact McNemar p of 0 rises and 1,075 falls is 2 x 0.5^1075): no test gives a p of 0.
  if (p < 1e-300) return '< 1e-300';
  return p < 0.001 ? p.toExponential(2) : p.toPrecision(3);
}

/** Formats a change with its sign: "+0.250", "-0.125", "0.000". */
export function fmtChange(x: number): string {
  if (Number.isNaN(x)) return '-';
  const s = x.toFixed(3);
  if (s === '0.000' || s === '-0.000') return '0.000';
  return x > 0 ? `+${s}` : s;
}

/** The thousandths a printed interval's bounds are rounded to (outward: see {@link fmtInterval}). */
const BOUND_SCALE = 1000;

/** The largest multiple of 0.001 (as the double k / 1000) at or below x; x itself when it is one. */
function floorThousandth(x: number): number {
  let k = Math.floor(x * BOUND_SCALE);
  // x * 1000 can be off by an ulp: settle k on the exact comparison of doubles.
  while ((k + 1) / BOUND_SCALE <= x) k++;
  while (k / BOUND_SCALE > x) k--;
  return k / BOUND_SCALE;
}

/** The smallest multiple of 0.001 (as the double k / 1000) at or above x; x itself when it is one. */
function ceilThousandth(x: number): number {
  let k = Math.ceil(x * BOUND_SCALE);
  while ((k - 1) / BOUND_SCALE >= x) k--;
  while (k / BOUND_SCALE < x) k++;
  return k / BOUND_SCALE;
}

/**
 * An interval on a change as printed: `[lower, upper]`, each bound as {@link fmtChange} prints a change,
 * but rounded outward to the thousandth (the lower bound down, the upper up), so that the printed
 * interval always holds the computed one. The verdict holds the computed bounds against ±threshold
 * (verdict.ts, `heldBackBy`); rounded to the nearest, an upper bound of 0.10029 printed `+0.100` beside
 * "held back by an interval reaching past ±0.100". With outward rounding, for a threshold of three
 * decimals the printed interval lies inside ±threshold exactly when the verdict does not hold the
 * condition back by its interval. A bound already on the grid (0.1 = 100 / 1000) stays where it is.
 * `--json` keeps the computed bounds.
 *
 * @param i - the interval (NaN bounds print `-`).
 * @returns `[+0.001, +0.101]` for [0.0015567, 0.1002882].
 */
export function fmtInterval(i: { readonly lower: number; readonly upper: number }): string {
  // Beyond 2^52 thousandths no double lies between two grid points (and k + 1 === k): printed as they are.
  const onGrid = (x: number): boolean => Number.isFinite(x) && Math.abs(x) * BOUND_SCALE < 2 ** 52;
  const lo = onGrid(i.lower) ? floorThousandth(i.lower) : i.lower;
  const hi = onGrid(i.upper) ? ceilThousandth(i.upper) : i.upper;
  return `[${fmtChange(lo)}, ${fmtChange(hi)}]`;
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
