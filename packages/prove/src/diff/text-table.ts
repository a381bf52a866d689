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
