import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../__fixtures__/helpers.js';
import { sha256Hex } from './create-run.js';
import type { EpisodeRow } from './episode-row.js';
import { partColumnData, readPart, writePart } from './parquet.js';
import { encodeInline, encodePart, THREAD_MIN_ROWS } from './part-encoder.js';

let dir: string;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

const AXES = { horizon: 'continuous', slack: 'continuous', strictness: 'categorical' } as const;

/** Rows with everything the columns may hold: nulls where allowed, -0, a crash, non-ASCII meta. */
function rows(n: number): EpisodeRow[] {
  return Array.from({ length: n }, (_, r) => {
    const crashed = r % 97 === 0;
    return {
      run_id: '20261106T231318Z-cdf9',
      condition: `horizon 8 · slack ${r % 3} · strictness strict`,
      horizon: 8,
      slack: r % 3,
      strictness: 'strict',
      replicate_index: r,
      seed: (r * 2654435761) % 2 ** 32,
      outcome: crashed ? null : r % 5 === 0 ? 'failed' : 'passed',
      t: crashed ? 0 : r % 7 === 0 ? -0 : 1 + (r % 4),
      score: r % 11 === 0 ? null : (r % 100) / 100,
      error: crashed ? `Error: boom on ${r} — ünïcode` : null,
      meta: crashed ? '{}' : JSON.stringify({ scenario_id: r.toString(16), note: 'π ≈ 3.14 🎲', calls: r % 9 }),
      duration_ms: (r % 1000) / 7,
    };
  });
}

describe('encodePart: a part encoded on the encoder thread', () => {
  it('has the same bytes and sha256 as one encoded in the calling thread', async () => {
    const part = rows(THREAD_MIN_ROWS + 501);
    const columns = partColumnData(AXES, part);
    const inline = encodeInline(columns, part.length);
    const threaded = await encodePart(columns, part.length, { thread: true });
    expect([inline.where, threaded.where]).toEqual(['inline', 'thread']); // not the inline fallback
    expect(threaded.sha256).toBe(inline.sha256);
    expect(Buffer.from(threaded.bytes).equals(Buffer.from(inline.bytes))).toBe(true);
    expect(sha256Hex(threaded.bytes)).toBe(threaded.sha256);
    // Several parts in flight at once come back each to its own caller.
    const small = rows(40);
    const both = await Promise.all([encodePart(partColumnData(AXES, small), 40, { thread: true }), encodePart(columns, part.length, { thread: true })]);
    expect(both[0].sha256).toBe(encodeInline(partColumnData(AXES, small), 40).sha256);
    expect(both[1].sha256).toBe(inline.sha256);
    expect(both.map((e) => e.where)).toEqual(['thread', 'thread']);
  });

  it('has the same bytes when whole columns hold one value (sent as that value) or differ in one row only', async () => {
    const n = THREAD_MIN_ROWS + 7;
    const base = rows(n).map((r) => ({ ...r, condition: 'horizon 8 · slack 1 · strictness strict', slack: 1, outcome: 'passed', score: null, error: null, meta: '{"same":true}' }));
    const variants: EpisodeRow[][] = [
      base,
      base.map((r, i) => (i === n - 1 ? { ...r, condition: 'horizon 8 · slack 2 · strictness strict' } : r)),
      base.map((r, i) => (i === 0 ? { ...r, outcome: null, error: 'Error: only the first' } : r)),
      // 0 and -0 are kept apart when sent (Object.is): the bytes are the encoder's either way.
      base.map((r, i) => ({ ...r, score: i === 3 ? -0 : 0 })),
      base.map((r) => ({ ...r, score: 0 })),
    ];
    for (const part of variants) {
      const columns = partColumnData(AXES, part);
      const threaded = await encodePart(columns, part.length, { thread: true });
      expect(threaded.where).toBe('thread');
      expect(threaded.sha256).toBe(encodeInline(columns, part.length).sha256);
    }
  });

  it('encodes a small part on the thread too once the thread runs (a sweep\'s last part; its code there is warm, where the calling thread\'s is cold)', async () => {
    await encodePart(partColumnData(AXES, rows(THREAD_MIN_ROWS)), THREAD_MIN_ROWS); // starts the thread where there is a core for it
    const small = rows(40);
    const encoded = await encodePart(partColumnData(AXES, small), 40);
    expect(encoded.where).toBe(availableParallelism() > 1 ? 'thread' : 'inline');
    expect(encoded.sha256).toBe(encodeInline(partColumnData(AXES, small), 40).sha256);
    // Asked for the calling thread, it is encoded there.
    expect((await encodePart(partColumnData(AXES, small), 40, { thread: false })).where).toBe('inline');
  });

  it('a part the structured clone refuses is encoded inline (its own error); the thread stays on and lets the process exit', () => {
    // It kept the thread referenced (the process never exited) and turned it off for the process.
    const script = fileURLToPath(new URL('../__fixtures__/encoder-bad-part.ts', import.meta.url));
    const r = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 30_000 });
    expect(r.signal).toBeNull(); // not killed at the timeout: it exited by itself
    expect(r.status).toBe(0);
    const where = availableParallelism() > 1 ? 'thread' : 'inline';
    expect(JSON.parse(r.stdout.trim().split('\n').pop() ?? '[]')).toEqual([where, 'error: parquet expected Uint8Array value, got object', where]);
  }, 60_000);

  it('is what writePart puts in place for a large part, and reads back as the rows written', async () => {
    const part = rows(THREAD_MIN_ROWS * 2);
    const written = await writePart(dir, 0, AXES, part);
    const bytes = await readFile(join(dir, written.file));
    const inline = encodeInline(partColumnData(AXES, part), part.length);
    expect(written.sha256).toBe(inline.sha256);
    expect(bytes.equals(Buffer.from(inline.bytes))).toBe(true);
    const back = await readPart(bytes, written.file);
    expect(back).toHaveLength(part.length);
    expect(back[97]).toMatchObject({ outcome: null, error: 'Error: boom on 97 — ünïcode', meta: '{}', score: 0.97 });
  });
});
