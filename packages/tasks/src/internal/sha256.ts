import { createHash } from 'node:crypto';

/** Lower-case hex sha256 of a string (UTF-8) or of bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
