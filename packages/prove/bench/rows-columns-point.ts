// One point of the rows-against-columns benchmarks (bench/view.bench.ts, bench/import.bench.ts), in its
// own process so that its peak RSS is its own:
//   node --conditions=poisson-source --import tsx bench/rows-columns-point.ts ENGINE STORE ROUNDS A B [X]
// ENGINE:
//   view-columns  viewDiff(A, B): the runs read as columns (as the CLI's `view A B` reads them now);
//   view-rows     the same page as the view wrote it before it read columns: both runs as row objects
//                 (readRunForDiff), diffEpisodes, discordantPairs over the rows, the listed pairs' error
//                 and meta through readEpisodes (an Arrow table of every row, filtered), diffHeatmaps
//                 over the rows, renderDiffPage;
//   diff-columns  diffRuns(A, B) and its JSON; diff-rows: readRunForDiff of both, diffEpisodes, its JSON
//                 and the unmatched pairs (how diffRuns read two imports before);
//   report-columns readReportRuns + reportGrid --x X for `failed` and its text; report-rows: readRunForDiff
//                 of both + reportGrid (how readReportRuns read imports before).
// Prints one JSON line: every round's milliseconds, the best, peak RSS, and the sha256 of the output (so
// the parent checks that rows and columns give the same bytes).
import { createHash } from 'node:crypto';
import { diffRuns } from '../src/diff/diff-runs.js';
import { diffEpisodes } from '../src/diff/diff-episodes.js';
import { discordantPairs, type DiscordantPairs } from '../src/diff/pairs.js';
import { alignByIdentity } from '../src/diff/pairing.js';
import { unmatchedPairs } from '../src/diff/partial.js';
import { readRunForDiff } from '../src/diff/read-run.js';
import { formatGridText, readReportRuns, reportGrid } from '../src/diff/report-grid.js';
import { readEpisodes } from '../src/store/read-episodes.js';
import { renderDiffPage } from '../src/view/diff-page.js';
import { diffHeatmaps, viewDiff } from '../src/view/view-diff.js';

const [engine, store, roundsText, a, b, x] = process.argv.slice(2) as [string, string, string, string, string, string | undefined];
const rounds = Number(roundsText ?? 2);
const times: number[] = [];
let out = '';
const time = async (f: () => Promise<string>): Promise<void> => {
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    out = await f();
    times.push(performance.now() - t0);
  }
};

/** The listed pairs' error and meta as the view read them before: readEpisodes with a filter. */
async function rowDetails(pairs: DiscordantPairs): Promise<DiscordantPairs> {
  const key = (c: string, r: number): string => `${c}\u0000${r}`;
  // Run B's stored index of a pair: another than A's when two imports hold the sample at other indices.
  const bIndex = (p: DiscordantPairs['groups'][number]['pairs'][number]): number => p.after.replicate_index ?? p.replicate_index;
  const keysOf = (which: 'before' | 'after'): Set<string> => new Set(pairs.groups.flatMap((g) => g.pairs.map((p) => key(p.condition, which === 'before' ? p.replicate_index : bIndex(p)))));
  const details = async (runId: string, keys: Set<string>): Promise<Map<string, { error: string | null; meta: unknown }>> => {
    const m = new Map<string, { error: string | null; meta: unknown }>();
    if (keys.size === 0) return m;
    const table = await readEpisodes(store, runId, { columns: ['condition', 'replicate_index', 'error', 'meta'], where: (r) => keys.has(key(r.condition, Number(r.replicate_index))) });
    for (let i = 0; i < table.numRows; i++) {
      const row = table.get(i)?.toJSON() as { condition: string; replicate_index: number; error: string | null; meta: string | null };
      let meta: unknown = row.meta;
      if (typeof meta === 'string') {
        try {
          meta = JSON.parse(meta);
        } catch {
          // kept as the stored text
        }
      }
      m.set(key(row.condition, Number(row.replicate_index)), { error: row.error ?? null, meta: meta ?? null });
    }
    return m;
  };
  const [da, db] = await Promise.all([details(pairs.before.run_id, keysOf('before')), details(pairs.after.run_id, keysOf('after'))]);
  return {
    ...pairs,
    groups: pairs.groups.map((g) => ({
      ...g,
      pairs: g.pairs.map((p) => {
        const fill = (s: typeof p.before, d: { error: string | null; meta: unknown } | undefined) => Object.freeze({ ...s, error: d?.error ?? s.error, meta: d?.meta ?? s.meta });
        return Object.freeze({ ...p, before: fill(p.before, da.get(key(p.condition, p.replicate_index))), after: fill(p.after, db.get(key(p.condition, bIndex(p)))) });
      }),
    })),
  };
}

if (engine === 'view-columns') {
  await time(async () => (await viewDiff(store, a, b)).html);
} else if (engine === 'view-rows') {
  await time(async () => {
    const read = { hardFailure: true };
    const [before, after] = await Promise.all([readRunForDiff(store, a, read), readRunForDiff(store, b, read)]);
    // The page states the pairs without a partner, as diffRuns does (since the fifth session of 2026-12-04).
    const aligned = alignByIdentity(before, after);
    const u = unmatchedPairs(aligned.before, aligned.after);
    const report = { ...diffEpisodes(before, after, {}), ...(u.before > 0 || u.after > 0 ? { unmatched: u } : {}) };
    const pairs = await rowDetails(discordantPairs(before, after, { events: report.events }));
    // Its notes and its --full command name the store, as viewDiff's do.
    return renderDiffPage({ report, pairs, heatmaps: diffHeatmaps(before, after, report, undefined, store), serve: false, store });
  });
} else if (engine === 'diff-columns') {
  await time(async () => JSON.stringify(await diffRuns(store, a, b)));
} else if (engine === 'diff-rows') {
  await time(async () => {
    const [before, after] = await Promise.all([readRunForDiff(store, a, { hardFailure: true }), readRunForDiff(store, b, { hardFailure: true })]);
    // As diffRuns read two imports before: the pairs without a partner in the other run stated, counted
    // by sample identity (since 75da57e: a sample one import rewords or lacks has no partner).
    const aligned = alignByIdentity(before, after);
    const u = unmatchedPairs(aligned.before, aligned.after);
    return JSON.stringify({ ...diffEpisodes(before, after, {}), ...(u.before > 0 || u.after > 0 ? { unmatched: u } : {}) });
  });
} else if (engine === 'report-columns') {
  await time(async () => {
    const [ra, rb] = await readReportRuns(store, [a, b], { verb: 'report' });
    return formatGridText(reportGrid(ra!, rb!, { x: x as string, event: 'failed' }));
  });
} else if (engine === 'report-rows') {
  await time(async () => {
    const [ra, rb] = await Promise.all([readRunForDiff(store, a, { verb: 'report' }), readRunForDiff(store, b, { verb: 'report' })]);
    return formatGridText(reportGrid(ra, rb, { x: x as string, event: 'failed' }));
  });
} else throw new Error(`unknown engine ${engine}`);

console.log(JSON.stringify({ engine, times, best: Math.min(...times), rss_mb: process.resourceUsage().maxRSS / 1024, sha256: createHash('sha256').update(out).digest('hex') }));
