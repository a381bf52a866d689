import { identicalFiles, sameReading } from '../store/imported-files.js';
import { listRuns } from '../store/list-runs.js';
import type { ImportedFile } from '../store/manifest.js';
import type { ImportFormat } from './imported-sample.js';

/**
 * The notes of an import whose files the store's runs were already imported from, byte for byte (the
 * sha256 each import records) or, for inspect, as the same log in its other format (its id): one per such file, naming the runs (newest first) and the file each was
 * imported from. The usual cause is the same model's log given twice instead of two models' logs.
 *
 * @param store - the store directory.
 * @param format - the harness of the import.
 * @param files - the files it reads, with their sha256.
 * @param reading - how it reads them (scorer, epoch, metrics inverted): an earlier import of the same
 *   file read another way is not noted.
 * @returns the notes, none when no file was imported before.
 */
export async function importedBefore(store: string, format: ImportFormat, files: readonly ImportedFile[], reading: { readonly scorer: string | null; readonly epoch?: number; readonly inverted?: readonly string[] } = { scorer: null }): Promise<string[]> {
  const record = { harness: format, files, ...reading };
  // A file read another way (another scorer, epoch or inverted metric) gives other outcomes: not noted.
  const earlier = (await listRuns(store)).filter((m) => sameReading(m.import, record)).flatMap((m) => identicalFiles(m.import, record).map((p) => ({ run: m, file: p.a, now: p.b, by: p.by })));
  const notes: string[] = [];
  for (const f of files) {
    const hits = earlier.filter((e) => e.now === f);
    if (hits.length === 0) continue;
    const runs = hits.slice(0, 3).map((h) => `run ${h.run.name} (${h.run.run_id}), from ${h.file.name}`);
    if (hits.length > 3) runs.push(`and ${hits.length - 3} more`);
    // The same inspect log in its other format (.eval and .json) is the same samples as surely as a copy.
    const what = hits.every((h) => h.by === 'log_id')
      ? `is the same inspect log, its samples and scores alike (its id ${String(f.log_id)}), as a file the store's runs were imported from`
      : `is byte-identical (sha256 ${f.sha256.slice(0, 12)}...) to a file the store's runs were imported from`;
    notes.push(`${f.name} ${what}: ${runs.join('; ')}. The store now holds the same samples twice; to compare two models, import the other model's log.`);
  }
  return notes;
}
