// Test helper: a store with two paired runs whose labels, meta and errors carry markup, a cached model
// answer, and one run with episodes that have no outcome.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildRun, fromTables, tempStore } from '../../diff/__fixtures__/build-run.js';

/** A condition label's axis value that would be markup if written raw. */
export const EVIL_VALUE = '<img src=x onerror=alert(1)>';
/** Meta text that would end a script element if written raw. */
export const EVIL_META = '</script><script>window.__pwned=1</script>';
/** An error that would be markup if written raw. */
export const EVIL_ERROR = '<b onmouseover=alert(2)>boom</b>';
/** The model answer in the cache: private, in a page only with `private`. */
export const PRIVATE_ANSWER = 'PRIVATE-ANSWER-c0ffee: the cached text of the model';
export const CACHE_KEY = 'cd'.repeat(32);

/** The spec: variant (a normal value and the evil one) x slack (4, 8), 16 replicates. */
export function viewSpecText(): string {
  return [
    'target_id = "view-fixture"',
    't_unit = "turns"',
    'replicates = 16',
    '[axes.slack]',
    'type = "continuous"',
    'values = [4, 8]',
    '[axes.variant]',
    'type = "categorical"',
    `values = ["plain", ${JSON.stringify(EVIL_VALUE)}]`,
    '',
  ].join('\n');
}

/**
 * Writes the store: run a (#3 once all are written) and b (#2) are paired; in condition 0 (slack 4,
 * plain) failed falls from 12 of 16 to 2 (10 discordant falls, a real change); the others do not move.
 * Run c (#1) is a with three episodes crashed (no outcome, an error). Returns the store directory.
 */
export async function viewStore(): Promise<string> {
  const store = await tempStore();
  const spec = viewSpecText();
  const t = fromTables([
    { both: 2, rise: 0, fall: 10, neither: 4 },
    { both: 4, rise: 1, fall: 1, neither: 10 },
    { both: 3, rise: 2, fall: 0, neither: 11 },
    { both: 0, rise: 0, fall: 0, neither: 16 },
  ]);
  const extra = (which: string) => (_v: unknown, c: number, r: number) => ({
    meta: JSON.stringify({ which, c, r, note: EVIL_META, cache_key: CACHE_KEY }),
  });
  await buildRun(store, { specText: spec, now: new Date('2026-11-06T10:00:00Z'), outcomes: t.before, extra: extra('A') });
  await buildRun(store, { specText: spec, now: new Date('2026-11-06T10:00:01Z'), outcomes: t.after, extra: extra('B') });
  await buildRun(store, {
    specText: spec,
    now: new Date('2026-11-06T10:00:02Z'),
    outcomes: (c, r) => (c === 1 && r < 3 ? null : t.before(c, r)),
    extra: (_v, c, r) => (c === 1 && r < 3 ? { outcome: null, error: `${EVIL_ERROR} #${r}`, meta: JSON.stringify({ note: EVIL_META }) } : {}),
  });
  await mkdir(join(store, '.cache', 'chat', 'cd'), { recursive: true });
  await writeFile(join(store, '.cache', 'chat', 'cd', `${CACHE_KEY}.json`), JSON.stringify({ key: CACHE_KEY, completion: { content: PRIVATE_ANSWER } }));
  return store;
}
