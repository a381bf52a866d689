// The discordant pairs listed for two imports (the view page's, `view --serve`'s and `diff --show
// pairs`') are the pairs the diff counts: paired by the samples' identity (docs/import.md, "Pairing"),
// not by stored replicate index. The second import's file holds the samples in another order (the
// import stores them in id order), lacks one (so every later sample is stored at an index one lower),
// and one sample's input differs (not a pair). On the code before this test, all three listings said
// the runs were not paired, while the diff paired 10 samples.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveView } from '../view/serve.js';
import { viewDiff } from '../view/view-diff.js';
import { tempStore } from './__fixtures__/build-run.js';
import { A, B, EVENTS, importPairRuns } from './__fixtures__/import-pairs.js';
import { diffRuns } from './diff-runs.js';
import type { DiscordantPairs } from './pairs.js';
import { formatPairsText } from './format-pairs.js';
import { readDiscordantPairs } from './read-pairs.js';
import { readRunForDiff } from './read-run.js';
import type { DiffReport } from './types.js';

/** The pairs the fixture's truth (A and B, __fixtures__/import-pairs.ts) makes: same doc, same input, outcomes that differ, by event. */
function expected(event: string): { doc: number; direction: 'rise' | 'fall'; before: string; after: string }[] {
  const out: { doc: number; direction: 'rise' | 'fall'; before: string; after: string }[] = [];
  for (const a of A) {
    const b = B.find((s) => s.doc === a.doc);
    if (b === undefined || b.input !== undefined || a.outcome === b.outcome) continue;
    out.push({ doc: a.doc, direction: b.outcome === event ? 'rise' : 'fall', before: a.outcome, after: b.outcome });
  }
  return out;
}

let dir: string;
let store: string;
let a: string;
let b: string;
let report: DiffReport;
beforeAll(async () => {
  dir = await tempStore();
  store = join(dir, 'store');
  ({ a, b } = await importPairRuns(dir, store));
  report = await diffRuns(store, a, b, { events: EVENTS });
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The doc id a listed side names, from its stored meta's identity. */
function docOf(meta: unknown): number {
  const identity = (meta as { identity?: unknown } | null)?.identity;
  expect(typeof identity).toBe('string');
  const m = /doc_id (\d+)/.exec(identity as string) ?? /(\d+)/.exec(identity as string);
  return Number(m?.[1]);
}

function checkPairs(pairs: DiscordantPairs | null): void {
  expect(pairs?.paired).toBe(true);
  const groups = pairs?.groups ?? [];
  expect(groups.length).toBe(report.rows.length);
  for (const row of report.rows) {
    const g = groups.find((x) => x.condition === row.condition && x.event === row.event);
    expect(g, `${row.condition} ${row.event}`).toBeDefined();
    // The listed counts are the diff's.
    expect({ rise: g?.rise, fall: g?.fall }).toEqual({ rise: row.counts?.rise, fall: row.counts?.fall });
    const want = expected(row.event);
    expect(want.filter((w) => w.direction === 'rise').length).toBe(row.counts?.rise);
    expect(want.filter((w) => w.direction === 'fall').length).toBe(row.counts?.fall);
    // Each listed pair: one sample on both sides, its outcomes in A and in B.
    const got = (g?.pairs ?? []).map((p) => {
      const doc = docOf(p.before.meta);
      expect(docOf(p.after.meta), `pair of doc ${doc}`).toBe(doc);
      expect(p.before.meta).toMatchObject({ identity: (p.after.meta as { identity: string }).identity });
      return { doc, direction: p.direction, before: p.before.outcome, after: p.after.outcome };
    });
    expect(got.sort((x, y) => x.doc - y.doc)).toEqual(want);
  }
}

describe('the listed pairs of two imports are the pairs the diff counts (paired by identity)', () => {
  it('the diff pairs the samples by identity: the absent doc and the reworded one are not pairs', () => {
    expect(report.identity).toMatchObject({ matched: 10, only_before: 1, only_after: 0 });
    expect(report.identity?.input_mismatches.length).toBe(1);
  });
  it('diff --show pairs (readDiscordantPairs)', async () => {
    checkPairs(await readDiscordantPairs(store, report));
  });
  it('readDiscordantPairs given the runs as rows (readRunForDiff)', async () => {
    const runs = { before: await readRunForDiff(store, a), after: await readRunForDiff(store, b) };
    checkPairs(await readDiscordantPairs(store, report, { runs }));
  });
  it('diff --show pairs text: run B holds the sample at another index, shown as A/B', async () => {
    const pairs = await readDiscordantPairs(store, report);
    const text = formatPairsText(pairs);
    const all = pairs.groups.flatMap((g) => g.pairs);
    // The import stores a condition's samples in id order: doc 9 at index 9 in A, at 8 in B (doc 4 absent).
    const p = all.find((x) => docOf(x.before.meta) === 9);
    expect({ a: p?.replicate_index, b: p?.after.replicate_index }).toEqual({ a: 9, b: 8 });
    expect(text).toMatch(/\n {2}(rise|fall) +9\/8 /);
    // Doc 1, before the absent one, is at index 1 in both: one index, no after.replicate_index.
    const q = all.find((x) => docOf(x.before.meta) === 1);
    expect({ a: q?.replicate_index, b: q?.after.replicate_index }).toEqual({ a: 1, b: undefined });
  });
  it('the view page (viewDiff(...).pairs)', async () => {
    checkPairs((await viewDiff(store, a, b, { events: EVENTS })).pairs);
  });
  it('view --serve (GET /pairs?condition=...)', async () => {
    const server = await serveView(store, a, b, { events: EVENTS });
    try {
      const groups = [];
      for (const c of new Set(report.rows.map((r) => r.condition))) {
        const res = await fetch(`${server.url}pairs?condition=${encodeURIComponent(c)}`);
        expect(res.status).toBe(200);
        groups.push(...((await res.json()) as DiscordantPairs).groups);
      }
      checkPairs({ ...((await (await fetch(`${server.url}pairs?condition=${encodeURIComponent(report.rows[0]?.condition ?? '')}`)).json()) as DiscordantPairs), groups });
    } finally {
      await server.close();
    }
  });
});

describe('the coverage of two imports', () => {
  it('counts pairs by sample identity, as the identity section does (it counted stored positions: 11 compared)', () => {
    // A: docs 0..11; B: no doc 4, doc 7's input differs. Paired: 10 samples; only in A: doc 4 and A's doc 7;
    // only in B: B's doc 7.
    expect((report as DiffReport & { identity?: { matched: number } }).identity?.matched).toBe(10);
    expect(report.unmatched).toEqual({ before: 2, after: 1, compared: 10 });
  });
});
