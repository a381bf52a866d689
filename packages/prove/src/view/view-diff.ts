import { indexForDiff, readDiffColumns } from '../diff/diff-columns.js';
import { computeDiff } from '../diff/diff-episodes.js';
import { checkOptions, refuseSameRun } from '../diff/diff-input.js';
import { columnsUnmatched, partialLine, withReadCoverage, type RunCoverage } from '../diff/partial.js';
import { sameSampleAxesOf } from '../diff/same-sample-axes.js';
import { proveCommandLine, shellRef } from '../internal/shell-word.js';
import { resumeCommandLine } from '../store/resume-command.js';
import { readingFlags, reportAxes } from '../diff/next-command.js';
import { plainLevel } from '../diff/registered-reading.js';
import { axisNames, pairIndexes } from '../diff/pairing.js';
import { checkedLimit, discordantPairsOfColumns, type DiscordantPairs } from '../diff/pairs.js';
import { addPairDetails } from '../diff/read-pairs.js';
import { reportGrid, sharedSeedsText } from '../diff/report-grid.js';
import { readHardFlags, type RunColumns } from '../diff/run-columns.js';
import { outcomeCodes } from '../diff/run-index.js';
import { renderGridSvg, svgWithNote } from '../diff/svg.js';
import type { CoverageEntry, DiffOptions, DiffReport, DiffRun, TestMethod } from '../diff/types.js';
import { inspectRun, type RunInspection } from '../store/inspect-run.js';
import type { RunManifest } from '../store/manifest.js';
import { unverifiedText } from '../store/run-provenance-text.js';
import { renderDiffPage, type PageHeatmap } from './diff-page.js';
import { renderRunPage } from './run-page.js';

/** Options of {@link viewDiff}: the diff's own, and what the page lists. */
export type ViewDiffOptions = DiffOptions & {
  /** At most this many discordant pairs per condition x event written into the page; default 20. */
  readonly limit?: number;
  /** Add private details: cached model answers (see `readDiscordantPairs`). Default false. */
  readonly private?: boolean;
  /** Leave the pairs out of the page, which then fetches them from its server (`serveView`). */
  readonly serve?: boolean;
  /** Read runs that are not complete, as `diffRuns` does with `partial`; the page then says partial. Default false. */
  readonly partial?: boolean;
};

/** A diff page and what it was written from. */
export type DiffView = {
  /** The self-contained HTML document. */
  readonly html: string;
  /** The report the page shows (the object `diff --json` prints for the same options). */
  readonly report: DiffReport;
  /** The discordant pairs written into the page (null when served, where they are read on demand). */
  readonly pairs: DiscordantPairs | null;
};

/**
 * The heatmaps of a diff: per tested event, `report`'s grid over the axes its `next:` line names (the
 * first two with more than one value), drawn by `renderGridSvg`, read with the report's own test: the
 * anytime-valid one when the report was read with `sequential` (so the grid cannot contradict the
 * page's verdict), else `method`'s. Each note names the `report` command that draws its grid: the
 * store (`store`, when given), both runs, the reading flags and `--partial`, each word shell-quoted; a
 * partial read's grid carries the `partial: ...` caption that command draws.
 */
export function diffHeatmaps(before: DiffRun | RunColumns, after: DiffRun | RunColumns, report: DiffReport, method?: TestMethod, store?: string): PageHeatmap[] {
  const axes = [...new Set([...axisNames(before.manifest), ...axisNames(after.manifest)])].sort();
  if (axes.length === 0) return report.events.map((event) => ({ event, svg: null, note: 'The runs have no axes, so there is no grid to draw.' }));
  const [x, y] = reportAxes(axes, (a) => {
    const seen = new Set<string>();
    for (const run of [before, after]) {
      if (!isColumns(run)) for (const r of run.rows) seen.add(String(r[a]));
      else if (run.length > 0) {
        // The values an axis takes in a run read as columns (a run without that axis: undefined, as a row reads it).
        const column = run.axes.get(a);
        if (column === undefined) seen.add(String(undefined));
        else for (const v of column.values) seen.add(String(v));
      }
    }
    return seen.size;
  }, sameSampleAxesOf(before.manifest, after.manifest));
  return report.events.map((event) => {
    try {
      const grid = reportGrid(before, after, {
        x: x as string,
        ...(y !== undefined ? { y } : {}),
        event,
        q: report.q,
        power: report.power,
        ...(method !== undefined ? { method } : {}),
        ...(report.sequential ? { sequential: true } : {}),
        ...(report.discordance_given !== null ? { discordance: report.discordance_given } : {}),
      });
      // The command that draws this grid, pasted: the store (when known), both runs, each word shell-quoted.
      const words = ['report', report.before.name, report.after.name, '--x', x as string, ...(y !== undefined ? ['--y', y] : []), '--event', event, ...readingFlags({ q: report.q, method, power: report.power, sequential: report.sequential, discordance: report.discordance_given, base: plainLevel(before.manifest, after.manifest) }), ...(report.partial !== undefined ? ['--partial'] : [])];
      const command = store !== undefined ? proveCommandLine(store, ...words) : ['poisson-prove', ...words.map(shellRef)].join(' ');
      const family = `the family is the grid's ${grid.diff.tests} cell${grid.diff.tests === 1 ? '' : 's'} tested (see docs/diff.md, "report and export")`;
      // Cells that pool conditions of one seed: the page says what the report's seeds line says.
      const note = `${command}: ${family}${grid.shared_seeds !== undefined ? `. ${sharedSeedsText(grid.shared_seeds, grid.diff.sequential).replace(/^./, (c) => c.toUpperCase())}` : ''}.`;
      // A partial read: the red `partial: ...` caption under the grid, as the note's command draws it (`report
      // --partial --out`: the same bytes; the page's grid lacked it).
      return { event, svg: svgWithNote(renderGridSvg(grid), partialLine(report.partial ?? [])), note };
    } catch (err) {
      return { event, svg: null, note: `No grid: ${err instanceof Error ? err.message : String(err)}` };
    }
  });
}

/**
 * The page of a diff (`poisson-prove view A B`): one self-contained HTML document (style, script and
 * data inlined; it loads nothing) written from the same {@link DiffReport} `diffRuns` returns — the
 * verdict sentence, a forest plot, `report`'s heatmap per event, the sortable and filterable conditions
 * table, and per condition its discordant pairs with their seeds, outcomes, t, errors and meta. Nothing
 * private is written unless `private` is true (then cached model answers are).
 *
 * @param store - the store directory.
 * @param a - run A (before).
 * @param b - run B (after).
 * @param options - {@link ViewDiffOptions}.
 * @returns the {@link DiffView}, frozen.
 * @throws RefError (exit 2) for a ref that names no run; DiffError as `diffRuns`.
 * @example
 * ```ts
 * const { html, report } = await viewDiff('store', '#2', '#1');
 * await writeFile('diff.html', html);
 * ```
 */
export async function viewDiff(store: string, a: string, b: string, options: ViewDiffOptions = {}): Promise<DiffView> {
  const { limit, private: priv, serve, ...diffOptions } = options;
  checkedLimit(options, 'viewDiff');
  checkOptions(diffOptions, 'viewDiff');
  const { before, after, report, noPairs } = await readViewDiff(store, a, b, diffOptions);
  const pairs = serve === true ? null : await addPairDetails(store, discordantPairsOfColumns(before, after, { events: report.events, sequential: report.sequential, ...(limit !== undefined ? { limit } : {}) }), { private: priv === true });
  const html = renderDiffPage({ report, pairs, heatmaps: diffHeatmaps(before, after, report, diffOptions.method, store), serve: serve === true, store, noPairs, unverified: unverifiedRuns(before, after) });
  return Object.freeze({ html, report, pairs });
}

/**
 * The two runs of a diff page read column by column (condition, replicate, seed, outcome, t, score,
 * the axes; `meta.hard_failure` unless scores are left out; an import's identity and input hash), and
 * the report computed from them: the one `diffEpisodes` computes from the same runs read as rows.
 *
 * @param store - the store directory.
 * @param a - run A (before).
 * @param b - run B (after).
 * @param options - the diff's options, `partial`, and `verb` (the command its refusals name; default 'view').
 * @returns the runs' columns, the report, and `noPairs`: the pairing figures (`--full`'s coverage) of each
 *   condition whose paired rows hold no pair (n = 0), for the page to say why.
 */
export async function readViewDiff(store: string, a: string, b: string, options: DiffOptions & { readonly partial?: boolean; readonly verb?: string }): Promise<{ readonly before: RunColumns; readonly after: RunColumns; readonly report: DiffReport; readonly noPairs: ReadonlyMap<string, CoverageEntry> }> {
  const { partial, verb, ...diffOptions } = options;
  const codes = outcomeCodes();
  // An import's identity pass reads meta anyway: its hard-failure flag is read there, as the view read it.
  const read = { hardFailure: diffOptions.scores !== false || diffOptions.cluster !== undefined ? ('imports' as const) : false, partial: partial === true, verb: verb ?? 'view' };
  let [before, after] = await Promise.all([readDiffColumns(store, a, codes, read), readDiffColumns(store, b, codes, read)]);
  refuseSameRun(before.manifest, after.manifest);
  // meta.hard_failure enters only the score comparisons (the diff's, and the heatmaps' grids'): for other
  // runs meta, the widest column, is read for it only when they are made (as diffRuns reads it).
  const scores = diffOptions.cluster !== undefined || (diffOptions.scores ?? (before.hasScores && after.hasScores));
  if (scores) [before, after] = await Promise.all([before, after].map((r) => (r.hard === null && r.identities == null ? readHardFlags(store, r) : r)) as [Promise<RunColumns>, Promise<RunColumns>]);
  checkOptions(diffOptions); // before the runs are indexed, as diffColumns checks them
  const x = indexForDiff(before, after);
  const report = computeDiff(x.before, x.after, diffOptions, { identity: x.identity });
  // What was read, as diffRuns states it: the runs read partially, and the pairs one run holds alone.
  const coverage = [before.coverage, after.coverage].filter((c): c is RunCoverage => c !== undefined);
  // The conditions with no pair to compare (every pair without an outcome in one run, say): paired again, only
  // when there are some, for the figures that say why (the report's coverage is --full's).
  const empty = new Set(report.rows.filter((r) => r.counts !== null && r.counts.n === 0).map((r) => r.condition));
  const noPairs = new Map<string, CoverageEntry>();
  if (empty.size > 0) for (const c of pairIndexes(x.before, x.after).conditions) if (empty.has(c.label)) noPairs.set(c.label, c.coverage);
  return { before, after, report: withReadCoverage(report, coverage, columnsUnmatched(x.columns.before, x.columns.after)), noPairs };
}

/** What `unverifiedText` says of each of the two runs written before checksums (none: empty). */
export function unverifiedRuns(before: RunColumns, after: RunColumns): string[] {
  return [...new Map([before.manifest, after.manifest].map((m) => [m.run_id, m])).values()]
    .map((m) => unverifiedText(m as Pick<RunManifest, 'parts' | 'run_id' | 'name'>))
    .filter((t): t is string => t !== null);
}

function isColumns(run: DiffRun | RunColumns): run is RunColumns {
  return !Array.isArray((run as DiffRun).rows);
}

/** A run page and the inspection it was written from. */
export type RunView = { readonly html: string; readonly run: RunInspection };

/**
 * The page of one run (`poisson-prove view A`): outcomes by condition, the episodes without an outcome
 * with their errors (the first `limit`, default 200), and the manifest (design, gate, status,
 * provenance); self-contained like {@link viewDiff}'s.
 *
 * @param store - the store directory.
 * @param ref - the run.
 * @param options - `{ limit? = 200 }`.
 * @returns the {@link RunView}, frozen.
 * @throws RefError (exit 2) for a ref that names no run.
 */
export async function viewRun(store: string, ref: string, options: { readonly limit?: number } = {}): Promise<RunView> {
  const run = await inspectRun(store, ref, { event: null, limit: options.limit ?? 200 });
  // The resume it names works when pasted here: with --trust-store where the run's module lies outside the working tree.
  return Object.freeze({ html: renderRunPage(run, await resumeCommandLine(store, run.manifest)), run });
}
