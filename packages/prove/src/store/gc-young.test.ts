import { mkdir, readdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachTempDir } from '../__fixtures__/helpers.js';
import { gcStore, YOUNG_MS } from './gc.js';

// A review (fifth session of 2026-12-06): createRun makes the run's directory and then takes its lock
// inside it; gc in between saw a directory without run.json or lock, locked it and removed it, and the
// sweep failed ("internal error: ENOENT ... link .lock") or found its new run locked by gc (12 of 60
// sweeps beside a gc loop). gc now keeps a never-started directory younger than YOUNG_MS.

const t = eachTempDir('gc-young-');

describe('gc and a directory a sweep has just made', () => {
  it('keeps one younger than 10 s, saying why, and removes it once older', async () => {
    const store = join(t.dir, 'store');
    const young = '20261206T120000Z-0aaa';
    const old = '20261206T110000Z-0bbb';
    await mkdir(join(store, young), { recursive: true });
    await mkdir(join(store, old), { recursive: true });
    const minuteAgo = new Date(Date.now() - 60_000);
    await utimes(join(store, old), minuteAgo, minuteAgo);
    const r = await gcStore(store);
    expect(r.removed).toEqual([old]);
    expect(r.kept).toEqual([{ dir: young, reason: 'made less than 10 s ago: a process may be creating it (gc removes it later)' }]);
    expect(await readdir(store)).toContain(young);
    // The same directory read 10 s later (the clock given) is removed.
    const later = await gcStore(store, () => Date.now() + YOUNG_MS + 1000);
    expect(later.removed).toEqual([young]);
  });
});
