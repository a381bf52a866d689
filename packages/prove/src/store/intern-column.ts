// A column as hyparquet reads it (a value per row) interned in row order, for the readers that count by
// codes when a part is not in the flat decoder's shape (the diff's index, inspect). Internal to the store.

/**
 * Values interned in row order: the distinct values, and per row the index of its value (-1 for null and
 * undefined, unless `keepNull`: then each value is kept as its text, `String(null)` and
 * `String(undefined)` too, as a condition label is).
 *
 * @param column - the column's values (undefined: a column the part lacks, every row undefined).
 * @param rows - the part's rows.
 * @param keepNull - whether null and undefined are values (as text) rather than -1.
 * @returns the distinct values and the codes.
 */
export function internColumn(column: ArrayLike<unknown> | undefined, rows: number, keepNull: boolean): { values: unknown[]; codes: Int32Array } {
  const values: unknown[] = [];
  const at = new Map<unknown, number>();
  const codes = new Int32Array(rows);
  for (let i = 0; i < rows; i++) {
    const v = column?.[i];
    if (!keepNull && (v === null || v === undefined)) {
      codes[i] = -1;
      continue;
    }
    const key = keepNull ? String(v) : v;
    let k = at.get(key);
    if (k === undefined) {
      k = values.length;
      values.push(key);
      at.set(key, k);
    }
    codes[i] = k;
  }
  return { values, codes };
}
