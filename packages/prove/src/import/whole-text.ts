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
 * @returns the file's text (UTF-8; a UTF-8 byte-order mark skipped).
 * @throws {@link ImportError} (exit 2) naming the file's size, the limit and `fix`, for a file over the
 *   limit; naming the encoding, for UTF-16 text or bytes that are not UTF-8.
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
  const bytes = await readFile(path);
  // UTF-16 (a byte-order mark FF FE or FE FF): the harnesses write UTF-8; read as UTF-8 it failed as JSON
  // with an invisible character named (a review).
  refuseUtf16(bytes, shown);
  // A UTF-8 byte-order mark (an editor's) is not part of the JSON text (RFC 8259, section 8.1): skipped.
  const start = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(start));
  } catch {
    // Bytes that are not UTF-8 (a Latin-1 file) were read as U+FFFD, silently: another text than the
    // harness wrote, whose input hashes no longer match its other logs' (a review).
    throw new ImportError(shown, '', 'is not UTF-8 text (some bytes are no UTF-8 character: another encoding, such as Latin-1, or a damaged file); convert it to UTF-8 or write the log again.');
  }
}

/**
 * Refuses text that starts with a UTF-16 byte-order mark (FF FE or FE FF): the harnesses write UTF-8.
 *
 * @throws {@link ImportError} naming the encoding and `iconv`.
 */
export function refuseUtf16(bytes: Uint8Array, shown: string): void {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    throw new ImportError(shown, '', 'is UTF-16 text (it starts with a UTF-16 byte-order mark), and the harness writes UTF-8; convert it (iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8) or write the log again.');
  }
}
