// Which files two imports share byte for byte (by the sha256 each import records in `import.files`):
// a second import of one file, or a diff of a log with itself (docs/import.md).
import type { ImportedFile } from './manifest.js';

function isFile(f: unknown): f is ImportedFile {
  return typeof f === 'object' && f !== null && typeof (f as ImportedFile).sha256 === 'string' && typeof (f as ImportedFile).name === 'string';
}

/**
 * The files an import read its samples from: its `import.files`, without lm-eval's `results_<date>.json`
 * (read for the model and the config only: the imports of two tasks of one lm-eval run, made one by
 * one, share it).
 *
 * @param record - a manifest's `import` record (anything else gives none).
 * @returns the files, as recorded.
 */
export function sampleFiles(record: unknown): ImportedFile[] {
  if (typeof record !== 'object' || record === null) return [];
  const r = record as { harness?: unknown; files?: unknown };
  const files = Array.isArray(r.files) ? r.files.filter(isFile) : [];
  return r.harness === 'lm-eval' ? files.filter((f) => !/^results_.*\.json$/.test(f.name)) : files;
}

/**
 * The sample files ({@link sampleFiles}) of import `b` that are byte-identical to one of import `a`
 * (the same sha256, `by: 'sha256'`) or the same inspect log in another format (the same `log_id`,
 * `by: 'log_id'`), each with its match in `a`; none when the imports are of different harnesses.
 *
 * @param a - a manifest's `import` record.
 * @param b - another.
 * @returns the pairs, in `b`'s order.
 */
export function identicalFiles(a: unknown, b: unknown): { readonly a: ImportedFile; readonly b: ImportedFile; readonly by: 'sha256' | 'log_id' }[] {
  const harness = (r: unknown): unknown => (typeof r === 'object' && r !== null ? (r as { harness?: unknown }).harness : undefined);
  if (harness(a) === undefined || harness(a) !== harness(b)) return [];
  const bySha = new Map(sampleFiles(a).map((f) => [f.sha256, f]));
  // One inspect log in its two formats (.eval and .json: inspect log convert) has other bytes and one id.
  const byLog = new Map(sampleFiles(a).flatMap((f) => (typeof f.log_id === 'string' ? [[f.log_id, f] as const] : [])));
  return sampleFiles(b).flatMap((f): { a: ImportedFile; b: ImportedFile; by: 'sha256' | 'log_id' }[] => {
    const m = bySha.get(f.sha256);
    if (m !== undefined) return [{ a: m, b: f, by: 'sha256' as const }];
    const l = typeof f.log_id === 'string' ? byLog.get(f.log_id) : undefined;
    return l === undefined ? [] : [{ a: l, b: f, by: 'log_id' as const }];
  });
}

/**
 * Whether two imports read their samples the same way: the same scorer (or metric), the same epoch (or
 * repeat; none: the log's only one), and the same metrics read inverted (lm-eval). One file read two ways
 * (`--scorer acc` and `--scorer acc_norm`, `--epoch 1` and `--epoch 2`) gives two different samples
 * of outcomes, not the same samples twice.
 *
 * @param a - a manifest's `import` record.
 * @param b - another.
 */
export function sameReading(a: unknown, b: unknown): boolean {
  const field = (r: unknown, k: string): unknown => (typeof r === 'object' && r !== null ? (r as Record<string, unknown>)[k] : undefined) ?? null;
  const inverted = (r: unknown): string => {
    const v = field(r, 'inverted');
    return Array.isArray(v) ? [...v].map(String).sort().join('\n') : '';
  };
  return field(a, 'scorer') === field(b, 'scorer') && field(a, 'epoch') === field(b, 'epoch') && inverted(a) === inverted(b);
}
