import { createHash } from 'node:crypto';
import { mkdir, open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { claimsDir } from './layout.js';

// Run names `<target_id> <YYYY-MM-DD> <letter>`: letters a..z, then aa, ab, ... per target_id and day,
// claimed atomically with one O_EXCL file per name under <store>/.claims/, so that two sweeps started at
// once never get the same name. Internal.

/** The n-th letter sequence: 0 -> a, 25 -> z, 26 -> aa, 27 -> ab, ... */
export function letters(n: number): string {
  let s = '';
  let k = n + 1;
  while (k > 0) {
    const r = (k - 1) % 26;
    s = String.fromCharCode(97 + r) + s;
    k = Math.floor((k - 1) / 26);
  }
  return s;
}

/** The claim file's name: the run name URL-encoded, or its sha256 when that would be too long for a file name. */
export function claimFile(name: string): string {
  const encoded = encodeURIComponent(name);
  return encoded.length <= 200 ? encoded : `sha256-${createHash('sha256').update(name).digest('hex')}`;
}

/** Claims the first free name for `targetId` on `day`; `taken` are names already used by runs in the store. */
export async function claimName(store: string, targetId: string, day: string, runId: string, taken: ReadonlySet<string>): Promise<string> {
  const dir = claimsDir(store);
  await mkdir(dir, { recursive: true });
  for (let i = 0; ; i++) {
    const name = `${targetId} ${day} ${letters(i)}`;
    if (taken.has(name)) continue;
    const file = join(dir, claimFile(name));
    let fh: Awaited<ReturnType<typeof open>>;
    try {
      fh = await open(file, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw err;
    }
    try {
      await fh.writeFile(`${runId}\n`);
      await fh.close();
      return name;
    } catch (err) {
      // This claim's own file, created above, that could not be written (a full disk): given back, not
      // left empty (naming no run, it kept the name from every later sweep).
      await fh.close().catch(() => undefined);
      await unlink(file).catch(() => undefined);
      throw err;
    }
  }
}
