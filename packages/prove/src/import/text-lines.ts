import { createReadStream } from 'node:fs';
import { ImportError } from './import-error.js';
import { refuseUtf16 } from './whole-text.js';

/**
 * The lines of a UTF-8 text file read as a stream (a JSON-lines log), without their line ends (`\n`, or
 * `\r\n`), read as the harnesses' whole files are ({@link readWholeText}): a UTF-8 byte-order mark at the
 * start skipped, UTF-16 text and bytes that are not UTF-8 refused by name, with the line they are on. Lines
 * are split on the byte 0x0A, which no UTF-8 sequence of another character holds, and each is decoded
 * whole. Until the evening of 2026-12-06 lm-eval's samples stream was decoded leniently: a Latin-1 byte was
 * read as U+FFFD, another text than the harness wrote, whose doc hashes no longer match its other logs'.
 *
 * @param path - the file.
 * @param shown - its name for messages.
 * @throws {@link ImportError} (exit 2) naming UTF-16 text, or the first line holding bytes that are not UTF-8.
 */
export async function* readUtf8Lines(path: string, shown: string): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let pending: Buffer[] = [];
  let line = 0;
  const text = (bytes: Buffer): string => {
    line++;
    // A UTF-8 byte-order mark (an editor's) is not part of the text (RFC 8259, section 8.1): skipped.
    const start = line === 1 && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    const end = bytes.length > start && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    try {
      return decoder.decode(bytes.subarray(start, end));
    } catch {
      throw new ImportError(shown, `line ${line}`, 'holds bytes that are not UTF-8 (another encoding, such as Latin-1, or a damaged file); convert the file to UTF-8 or write the log again.');
    }
  };
  let first = true;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    if (first && chunk.length > 0) {
      first = false;
      refuseUtf16(chunk, shown);
    }
    let start = 0;
    for (let at = chunk.indexOf(0x0a, start); at >= 0; at = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, at);
      yield text(pending.length === 0 ? piece : Buffer.concat([...pending, piece]));
      pending = [];
      start = at + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) yield text(Buffer.concat(pending));
}
