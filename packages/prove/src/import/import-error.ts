import { ProveError } from '../errors.js';

/**
 * A file that cannot be imported as asked (code `E_IMPORT`, exit 2): a truncated zip, a file of another
 * format, duplicate sample ids, a line that is not JSON. The message names the file and the place in it
 * (entry, line or index) and the fix; nothing is written to the store.
 *
 * @param file - the file as given.
 * @param place - where in it (`line 17`, `samples/3_epoch_1.json`, `results[4]`), or '' for the whole file.
 * @param problem - what is wrong and what to do, one sentence.
 * @example
 * ```ts
 * new ImportError('samples_arc_2024.jsonl', 'line 3', 'is not JSON (Unexpected token)').message;
 * // 'samples_arc_2024.jsonl, line 3: is not JSON (Unexpected token)'
 * ```
 */
export class ImportError extends ProveError {
  readonly file: string;
  readonly place: string;
  constructor(file: string, place: string, problem: string) {
    super('E_IMPORT', [`${file}${place === '' ? '' : `, ${place}`}: ${problem}`], 2);
    this.file = file;
    this.place = place;
  }
}
