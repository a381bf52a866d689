import { diffEpisodes } from '../diff/diff-episodes.js';
import { reportAxes } from '../diff/next-command.js';
import { axisNames } from '../diff/pairing.js';
import type { DiscordantPairs } from '../diff/pairs.js';
import { readDiscordantPairs } from '../diff/read-pairs.js';
import { readRunForDiff } from '../diff/read-run.js';
import { reportGrid } from '../diff/report-grid.js';
import { renderGridSvg } from '../diff/svg.js';
import type { DiffOptions, DiffReport, DiffRun, TestMethod } from '../diff/types.js';
import { inspectRun, type RunInspection } from '../store/inspect-run.js';
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
 * first two with more than one value), drawn by `renderGridSvg`.
 */
export function diffHeatmaps(before: DiffRun, after: DiffRun, report: DiffReport, method?: TestMethod): PageHeatmap[] {
  const axes = [...new Set([...axisNames(before.manifest), ...axisNames(after.manifest)])].sort();
  if (axes.length === 0) return report.events.map((event) => ({ event, svg: null, note: 'The runs have no axes, so there is no grid to draw.' }));
  const rows = [...before.rows, ...after.rows];
  const [x, y] = reportAxes(axes, (a) => new Set(rows.map((r) => String(r[a]))).size);
  return report.events.map((event) => {
    try {
      const grid = reportGrid(before, after, {
        x: x as string,
        ...(y !== undefined ? { y } : {}),
        event,
        q: report.q,
        power: report.power,
        ...(method !== undefined ? { method } : {}),
      });
      return { event, svg: renderGridSvg(grid), note: `poisson-prove report --x ${x as string}${y !== undefined ? ` --y ${y}` : ''} --event ${event}: the family is the grid's ${grid.cells.length} cells (see docs/diff.md, "report and export").` };
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
  const read = { hardFailure: diffOptions.scores !== false || diffOptions.cluster !== undefined };
  const [before, after] = await Promise.all([readRunForDiff(store, a, read), readRunForDiff(store, b, read)]);
  const report = diffEpisodes(before, after, diffOptions);
  const pairs = serve === true ? null : await readDiscordantPairs(store, report, { runs: { before, after }, private: priv === true, ...(limit !== undefined ? { limit } : {}) });
  const html = renderDiffPage({ report, pairs, heatmaps: diffHeatmaps(before, after, report, diffOptions.method), serve: serve === true });
  return Object.freeze({ html, report, pairs });
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
  return Object.freeze({ html: renderRunPage(run), run });
}
