// eachOpenPart with the read thread keeps its reads a bounded number of parts ahead of the part being
// consumed (the parts read and not consumed are held in memory), and starts none once it has thrown;
// with `flat`, on either thread, it keeps no part's bytes: anything else asked of a part reads it again
// and checks it again.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRun, tempStore } from '../diff/__fixtures__/build-run.js';
import { episodesDir } from './layout.js';
import type { RunManifest } from './manifest.js';
import { eachOpenPart, runParts } from './verify-parts.js';

const SPEC = ['target_id = "t"', 't_unit = "turns"', 'replicates = 400', '[axes.slack]', 'type = "continuous"', 'values = [1]', ''].join('\n');
const COLUMNS = ['condition', 'replicate_index', 'seed', 'outcome'];
/** THREAD_DEPTH (2) parts on the thread, and one read here, beyond the part being consumed. */
const AHEAD = 3;

let dir: string;
let store: string;
let manifest: RunManifest;
beforeAll(async () => {
  dir = await tempStore();
  store = join(dir, 'store');
  manifest = await buildRun(store, { specText: SPEC, partRows: 10, outcomes: (_c, r) => (r % 3 === 0 ? 'failed' : 'passed') });
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('eachOpenPart on the read thread', () => {
  it('starts no read more than THREAD_DEPTH + 1 parts ahead of a slow consumer (it read the whole run ahead before)', async () => {
    const parts = await runParts(store, manifest);
    expect(parts.length).toBe(40);
    let highest = -1;
    const seen: number[] = [];
    await eachOpenPart(
      manifest,
      parts,
      async (_file, k) => {
        expect(highest).toBeLessThanOrEqual(k + AHEAD);
        seen.push(k);
        // A consumer slower than the reads (a diff that also reads meta, a page that renders).
        await new Promise((resolve) => setTimeout(resolve, 3));
        expect(highest).toBeLessThanOrEqual(k + AHEAD);
      },
      { flat: COLUMNS, thread: true, started: (k) => (highest = Math.max(highest, k)) },
    );
    expect(seen).toEqual(parts.map((_, k) => k));
  });

  it.each([true, false])('keeps no part\'s bytes (thread %s): the flat columns are decoded as it is read, and anything else asked of it reads it again, checked again', async (thread) => {
    const parts = await runParts(store, manifest);
    const file = join(episodesDir(store, manifest.run_id), parts[2]?.file as string);
    const bytes = await readFile(file);
    const damaged = Buffer.from(bytes);
    damaged[100] = (damaged[100] as number) ^ 0xff;
    try {
      const asked: unknown[] = [];
      await eachOpenPart(
        manifest,
        parts.slice(0, 4),
        async (opened, k) => {
          if (k !== 2) return;
          // The part changes on disk after it was read and checked.
          await writeFile(file, damaged);
          // What was decoded as it was read is what was checked: served as read (in any order of the columns).
          const flat = opened.flat(['outcome', 'condition']);
          expect(flat?.rows).toBe(10);
          expect(flat?.columns.map((c) => c?.kind)).toEqual(['strings', 'strings']);
          // Anything else reads the part again, and the changed bytes are refused.
          asked.push(await opened.columns(['meta']).then(() => 'read', (e: unknown) => e));
          asked.push(await opened.rows().then(() => 'read', (e: unknown) => e));
        },
        { flat: COLUMNS, thread },
      );
      expect(asked).toHaveLength(2);
      for (const e of asked) expect((e as Error).message).toMatch(/part-00002\.parquet was changed \(sha256/);
    } finally {
      await writeFile(file, bytes);
    }
  });

  it('starts no read after a damaged part has stopped it', async () => {
    const parts = await runParts(store, manifest);
    const file = join(episodesDir(store, manifest.run_id), parts[3]?.file as string);
    const bytes = await readFile(file);
    const damaged = Buffer.from(bytes);
    damaged[100] = (damaged[100] as number) ^ 0xff;
    await writeFile(file, damaged);
    try {
      const started: number[] = [];
      const err = await eachOpenPart(manifest, parts, () => undefined, { flat: COLUMNS, thread: true, started: (k) => started.push(k) }).then(
        () => null,
        (e: unknown) => e,
      );
      expect((err as Error).message).toMatch(/was changed/);
      const atFailure = started.length;
      expect(Math.max(...started)).toBeLessThanOrEqual(3 + AHEAD);
      // Whatever was in flight comes back; nothing new is started after it (the old loop went on to the last part).
      await eachOpenPart(manifest, parts.slice(0, 1), () => undefined, { flat: COLUMNS, thread: true });
      expect(started.length).toBe(atFailure);
    } finally {
      await writeFile(file, bytes);
    }
  });
});
