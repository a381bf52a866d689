import yauzl from 'yauzl';
import { ImportError } from './import-error.js';

/** One entry of a zip, its bytes read and inflated. */
export type ZipEntry = { readonly name: string; readonly data: Buffer };

/**
 * Reads every file entry of a zip whose name `want` accepts, with yauzl (it reads the central directory,
 * checks each entry's sizes and inflates; a file cut short has no end of central directory and fails).
 *
 * @param path - the zip file.
 * @param shown - the file's name for messages.
 * @param want - which entries to read.
 * @returns the entries, in the zip's order.
 * @throws {@link ImportError} naming the file (and the entry) when it is not a readable zip.
 */
export async function readZip(path: string, shown: string, want: (name: string) => boolean): Promise<ZipEntry[]> {
  return readZipEntries(path, shown, want, (name, data) => ({ name, data }));
}

/**
 * {@link readZip}, each entry handed to `map` as soon as it is inflated and only what `map` returns kept:
 * a large log's entries are then never all in memory at once (a review's 192 MB `.eval`, 3.3 GB
 * inflated, ran the import out of heap when every entry and its parsed sample were held to the end).
 *
 * @param map - what to keep of an entry (called in the zip's order; a throw fails the read).
 * @returns what `map` returned for each entry read, in the zip's order.
 */
export async function readZipEntries<T>(path: string, shown: string, want: (name: string) => boolean, map: (name: string, data: Buffer) => T): Promise<T[]> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true, strictFileNames: false, validateEntrySizes: true }, (err, z) => {
      if (err !== null || z === undefined) reject(new ImportError(shown, '', `is not a readable zip (${firstLine(err)}); a .eval log cut short (copied while inspect_ai was still writing it, or truncated) cannot be read: copy it again once the run has ended.`));
      else resolve(z);
    });
  });
  return new Promise<T[]>((resolve, reject) => {
    const out: T[] = [];
    let current = '';
    const fail = (err: unknown): void => {
      zip.close();
      reject(err instanceof ImportError ? err : new ImportError(shown, current === '' ? '' : `entry ${current}`, `cannot be read from the zip (${firstLine(err)}); the .eval file is damaged: copy it again.`));
    };
    zip.on('error', fail);
    zip.on('end', () => resolve(out));
    zip.on('entry', (entry: yauzl.Entry) => {
      current = entry.fileName;
      if (entry.fileName.endsWith('/') || !want(entry.fileName)) {
        zip.readEntry();
        return;
      }
      zip.openReadStream(entry, (err, stream) => {
        if (err !== null || stream === undefined) {
          fail(err);
          return;
        }
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('error', fail);
        stream.on('end', () => {
          try {
            out.push(map(entry.fileName, Buffer.concat(chunks)));
          } catch (e) {
            fail(e);
            return;
          }
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
}

function firstLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.split('\n')[0] ?? msg;
}
