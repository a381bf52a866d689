// A review (the night of 2026-12-06): `diff --show pairs` reads the runs twice, once for the report
// (diffRuns) and once for the listing (readDiscordantPairs). A run still being written that grew, or
// ended, between the two reads was listed as it then was: under --sequential the listing counted 7 rises
// and 4 falls where the row tested 1 and 2 (and, the run ended, dropped `settled`), and nothing said so.
// The settled listing now takes each condition's first pairs as many as the row tested; a fixed-n listing
// whose counts differ from the rows' says so (`changed_since_diff`).
import { describe, expect, it } from 'vitest';
import { sweep } from '../executor/sweep.js';
import { conditionsOf } from '../spec/conditions.js';
import { seedFor } from '../spec/seed-for.js';
import { parseSweepSpec } from '../spec/sweep-spec.js';
import { createRun } from '../store/create-run.js';
import type { EpisodeRow } from '../store/episode-row.js';
import { tempStore } from './__fixtures__/build-run.js';
import { diffRuns } from './diff-runs.js';
import { formatPairsText } from './format-pairs.js';
import { readDiscordantPairs } from './read-pairs.js';

const SPEC = `target_id = "reread"\nt_unit = "turns"\nreplicates = 40\n\n[axes.task]\ntype = "categorical"\nvalues = ["t0", "t1"]\n`;
const SALT = '00c0ffee00c0ffee';
/** A deterministic draw in [0, 1000) from a seed and a stream k. */
const draw = (seed: number, k: number): number => (Math.imul((seed ^ (k * 0x9e3779b9)) >>> 0, 2654435761) >>> 0) % 1000;

describe('diff --show pairs of a run that grows between the two reads', () => {
  it('lists the pairs the rows tested under --sequential, and says when a fixed-n listing read other counts', async () => {
    const store = await tempStore();
    const a = await sweep({ spec: SPEC, target: async (cfg) => ({ outcome: draw(cfg.seed, 1) < 300 ? 'failed' : 'passed', t: 1, meta: {} }), store, salt: SALT, maxMde: 0.99, now: new Date(Date.UTC(2026, 0, 1)) });
    const spec = parseSweepSpec(SPEC);
    const w = await createRun(store, { spec, specText: SPEC, target: 'test:reread', salt: SALT, maxMde: 0.99, partRows: 2, now: new Date(Date.UTC(2026, 0, 1, 0, 1)) });
    const rowsFor = (from: number, to: number): EpisodeRow[] =>
      conditionsOf(spec).flatMap((c) =>
        Array.from({ length: to - from }, (_, k) => {
          const r = from + k;
          const seed = seedFor(SALT, r);
          return { run_id: w.manifest.run_id, condition: c.label, ...c.values, replicate_index: r, seed, outcome: draw(seed, 9) < 500 ? 'failed' : 'passed', t: 1, score: null, error: null, meta: '{}', duration_ms: 1 } as EpisodeRow;
        }),
      );
    await w.append(rowsFor(0, 10));
    const seq = await diffRuns(store, a.run_id, w.manifest.run_id, { partial: true, sequential: true, events: ['failed'] });
    const fixed = await diffRuns(store, a.run_id, w.manifest.run_id, { partial: true, events: ['failed'] });
    const counts = (r: typeof seq) => r.rows.map((x) => [x.condition, x.counts?.rise, x.counts?.fall]);
    const listed = (p: Awaited<ReturnType<typeof readDiscordantPairs>>) => p.groups.map((g) => [g.condition, g.rise, g.fall]);
    // The writer goes on between the diff's reads and the listings'.
    await w.append(rowsFor(10, 25));
    const grown = await readDiscordantPairs(store, seq, { partial: true });
    expect(grown.settled).toBe(true);
    expect(listed(grown)).toEqual(counts(seq));
    expect(grown.groups.every((g) => g.pairs.every((p) => p.replicate_index < 10))).toBe(true);
    expect(grown.changed_since_diff).toBeUndefined();
    const waiting = grown.groups.reduce((n, g) => n + (g.waiting?.rise ?? 0) + (g.waiting?.fall ?? 0), 0);
    expect(waiting).toBeGreaterThan(0); // replicates 10-24, written since
    const fixedGrown = await readDiscordantPairs(store, fixed, { partial: true });
    expect(listed(fixedGrown)).not.toEqual(counts(fixed));
    expect(fixedGrown.changed_since_diff).toBe(true);
    expect(formatPairsText(fixedGrown)).toContain("note: a run changed between the diff's read and this listing's (it is still being written): the listing holds only the rows' conditions, and its counts may be this read's, not the rows'; poisson-prove view");
    expect(formatPairsText(fixedGrown)).toMatch(/poisson-prove view "[^"]+" "[^"]+" --partial --event "failed" lists the pairs from its report's own read\n/);
    // The run ends: the listing still reads the pairs the rows tested.
    await w.close('complete');
    const ended = await readDiscordantPairs(store, seq, { partial: true });
    expect(ended.settled).toBe(true);
    expect(listed(ended)).toEqual(counts(seq));
  });

  // The review of that mend: a condition the run had not begun when the diff read it has no row; its pairs
  // were listed from the later read, and nothing said so.
  it('leaves out a condition begun after the diff read the run, and says the run changed', async () => {
    const store = await tempStore();
    const a = await sweep({ spec: SPEC, target: async (cfg) => ({ outcome: draw(cfg.seed, 1) < 300 ? 'failed' : 'passed', t: 1, meta: {} }), store, salt: SALT, maxMde: 0.99, now: new Date(Date.UTC(2026, 0, 1)) });
    const spec = parseSweepSpec(SPEC);
    const w = await createRun(store, { spec, specText: SPEC, target: 'test:reread', salt: SALT, maxMde: 0.99, partRows: 2, now: new Date(Date.UTC(2026, 0, 1, 0, 1)) });
    const rowsOf = (label: string, from: number, to: number): EpisodeRow[] =>
      conditionsOf(spec)
        .filter((c) => c.label === label)
        .flatMap((c) =>
          Array.from({ length: to - from }, (_, k) => {
            const r = from + k;
            const seed = seedFor(SALT, r);
            return { run_id: w.manifest.run_id, condition: c.label, ...c.values, replicate_index: r, seed, outcome: draw(seed, 9) < 500 ? 'failed' : 'passed', t: 1, score: null, error: null, meta: '{}', duration_ms: 1 } as EpisodeRow;
          }),
        );
    await w.append(rowsOf('task t0', 0, 10));
    const reports = [];
    for (const sequential of [true, false]) reports.push(await diffRuns(store, a.run_id, w.manifest.run_id, { partial: true, sequential, events: ['failed'] }));
    await w.append(rowsOf('task t1', 0, 25));
    for (const report of reports) {
      expect(report.rows.map((r) => r.condition)).toEqual(['task t0']);
      const listed = await readDiscordantPairs(store, report, { partial: true });
      expect(listed.groups.map((g) => g.condition)).toEqual(['task t0']);
      expect(listed.changed_since_diff).toBe(true);
      // The page's command reads as the listing did (a review: it left out --sequential).
      const note = formatPairsText(listed).split('\n').find((l) => l.startsWith('note: ')) ?? '';
      expect(note.endsWith(`--partial --event "failed"${report.sequential ? ' --sequential' : ''} lists the pairs from its report's own read`)).toBe(true);
      expect(note.includes("its counts may be this read's")).toBe(!report.sequential);
    }
    await w.close('interrupted');
  });
});
