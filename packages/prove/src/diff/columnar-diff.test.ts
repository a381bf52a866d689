import { readFile, rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedRows } from '../__fixtures__/helpers.js';
import { listRuns } from '../store/list-runs.js';
import { resolveRun } from '../store/resolve-run.js';
import { tempStore } from './__fixtures__/build-run.js';
import { MIXED_DIFFS, pinnedFields, mixedReports, writeMixedRuns } from './__fixtures__/mixed-runs.js';
import { diffEpisodes } from './diff-episodes.js';
import { diffRuns } from './diff-runs.js';
import { readRunForDiff } from './read-run.js';

// The diff reads a run column by column into typed arrays per condition (read-run.ts, run-index.ts).
// Its reports must be the ones the diff gave when it read row objects through the Arrow table:
// columnar-diff.json was written by gen-columnar-diff.ts against commit f07ee6e (the row path, with main's statistics), on
// runs with several conditions, a condition in one run only, replicates in one run only, crashes,
// truncated episodes, scores with gaps, hard-failure flags and a run on another salt.
describe('the columnar diff gives the row path\'s reports', () => {
  let store: string;
  let ids: string[];
  let expected: Record<string, unknown>;
  beforeAll(async () => {
    store = await tempStore();
    await writeMixedRuns(store);
    ids = (await listRuns(store)).map((m) => m.run_id);
    expected = JSON.parse(await readFile(new URL('./__fixtures__/columnar-diff.json', import.meta.url), 'utf8')) as Record<string, unknown>;
  });
  afterAll(() => rm(store, { recursive: true, force: true }));

  it('matches the reports of the row path, JSON for JSON, for every option set', async () => {
    const actual = await mixedReports(store, ids);
    for (const d of MIXED_DIFFS) expect(actual[d.name], d.name).toEqual(expected[d.name]);
    expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
  });

  it('gives the same report from the stored rows handed to diffEpisodes (the in-memory path)', async () => {
    for (const d of MIXED_DIFFS) {
      const read = { hardFailure: d.options.scores !== false || d.options.cluster !== undefined };
      const [a, b] = [await readRunForDiff(store, d.a, { ...read, partial: true }), await readRunForDiff(store, d.b, { ...read, partial: true })];
      const inMemory = diffEpisodes(a, b, d.options);
      let text = JSON.stringify(pinnedFields(inMemory));
      ids.forEach((id, i) => (text = text.split(id).join(`RUN${i + 1}`)));
      // The in-memory path reads no coverage, so its next: has no --partial (diffRuns' own, below).
      const pinned = expected[d.name] as { next?: string };
      expect(JSON.parse(text), d.name).toEqual(typeof pinned.next === 'string' ? { ...pinned, next: pinned.next.replace(/ --partial$/, '') } : pinned);
      // The fields added after the fixture was written (looks, sequential, clustered) agree between the
      // two paths too; only the store's coverage (partial, unmatched) is diffRuns' own, and with it the
      // `--partial` its next: command carries (since the fifth session of 2026-12-06).
      const { partial: p, unmatched: _u, ...columnar } = await diffRuns(store, d.a, d.b, { ...d.options, partial: true });
      expect(columnar.next.at(-1) === '--partial', d.name).toBe(p !== undefined);
      expect({ ...columnar, next: columnar.next.filter((w) => w !== '--partial') }, d.name).toEqual(inMemory);
    }
  });

  it('reads the same rows column by column as the row reader, field for field', async () => {
    for (const ref of ['#1', '#2', '#3']) {
      const m = await resolveRun(store, ref);
      // Every stored row (the fixture's runs are closed complete with pairs missing, which episodes refuses).
      const rows = await storedRows(store, ref);
      const read = await readRunForDiff(store, ref, { hardFailure: true, partial: true });
      expect(read.manifest).toEqual(m);
      expect(read.rows.length).toBe(rows.length);
      read.rows.forEach((r, i) => {
        const row = rows[i] as Record<string, unknown>;
        for (const c of ['condition', 'replicate_index', 'seed', 'outcome', 't', 'score', 'slack', 'strictness']) expect(r[c], `${ref} row ${i} ${c}`).toEqual(row[c]);
        const meta = JSON.parse(row['meta'] as string) as Record<string, unknown>;
        expect(r.hard_failure).toBe(typeof meta['hard_failure'] === 'boolean' ? meta['hard_failure'] : null);
      });
    }
  });
});
