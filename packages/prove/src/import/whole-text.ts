import { constants } from 'node:buffer';
import { readFile, stat } from 'node:fs/promises';
import { ImportError } from './import-error.js';

const MIB = 1024 * 1024;

/**
 * The text of a file read whole, as one string: a file of more bytes than the longest string Node can
 * hold (`buffer.constants.MAX_STRING_LENGTH` characters, 2^29 - 24 on Node 20, ~512 MiB) is refused by
 * its size before it is read, where reading it failed with `RangeError: Invalid string length`. (A UTF-8
 * file of that many bytes holds at most that many characters, so a file at or under the limit is read.)
 *
 * @param path - the file.
 * @param shown - its name for messages.
 * @param fix - what to do instead, one sentence without its full stop (how to write the results smaller).
 * @param limit - the longest string, in characters; default Node's.
 * @returns the file's text (UTF-8).
 * @throws {@link ImportError} (exit 2) naming the file's size, the limit and `fix`, for a file over the limit.
 */
export async function readWholeText(path: string, shown: string, fix: string, limit: number = constants.MAX_STRING_LENGTH): Promise<string> {
  const { size } = await stat(path);
  if (size > limit) {
    throw new ImportError(
      shown,
      '',
      `is ${size} bytes, more than the ${limit} characters (~${Math.round(limit / MIB)} MiB) Node can hold in one string (buffer.constants.MAX_STRING_LENGTH), so it cannot be read as one JSON text; ${fix}.`,
    );
  }
  return readFile(path, 'utf8');
}
