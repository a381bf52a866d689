// `report BASE CAND1 CAND2 ...`: one grid, and one heatmap panel, per candidate.
import { formatGridText, reportGrid, type ReportGrid, type ReportOptions } from './report-grid.js';
import { renderGridSvg } from './svg.js';
import type { RunColumns } from './run-columns.js';
import type { DiffRun } from './types.js';
import { requireArgument } from 'poisson-core';

/** The grids of one baseline against several candidates, one per candidate, in the order given. */
export type ReportPanels = { readonly panels: readonly ReportGrid[] };

/**
 * One {@link reportGrid} per candidate against the same baseline. Each panel is read as `report BASE
 * CANDIDATE` is (its family is its own grid's cells, as its caption says).
 *
 * @throws RangeError when no candidate is given; DiffError as {@link reportGrid}.
 */
export function reportPanels(base: DiffRun | RunColumns, candidates: readonly (DiffRun | RunColumns)[], options: ReportOptions): ReportPanels {
  requireArgument('reportPanels', 'base', base, 'object', 'a run ({ manifest, rows }) or the columns readReportRuns returns');
  requireArgument('reportPanels', 'candidates', candidates, 'array', 'an array of runs');
  requireArgument('reportPanels', 'options', options, 'object', 'an object with x');
  if (candidates.length === 0) throw new RangeError('reportPanels: candidates must name at least one run, got none');
  return Object.freeze({ panels: Object.freeze(candidates.map((c) => reportGrid(base, c, options))) });
}

/** The panels as text: each grid's text, separated by a blank line. */
export function formatPanelsText(p: ReportPanels): string {
  requireArgument('formatPanelsText', 'p', p, 'object', 'what reportPanels returns');
  return p.panels.map(formatGridText).join('\n');
}

/**
 * The panels as one SVG: each candidate's heatmap ({@link renderGridSvg}) stacked top to bottom, its
 * gradient renamed so that the ids stay unique.
 */
export function renderPanelsSvg(p: ReportPanels): string {
  requireArgument('renderPanelsSvg', 'p', p, 'object', 'what reportPanels returns');
  let y = 0;
  let width = 0;
  const groups: string[] = [];
  p.panels.forEach((grid, i) => {
    const svg = renderGridSvg(grid);
    const m = /^<svg[^>]* width="([0-9.]+)" height="([0-9.]+)"[^>]*>\n/.exec(svg);
    const w = Number(m?.[1] ?? 0);
    const h = Number(m?.[2] ?? 0);
    const body = svg
      .slice(m?.[0].length ?? 0)
      .replace(/<\/svg>\n$/, '')
      .replaceAll('id="scale"', `id="scale-${i + 1}"`)
      .replaceAll('url(#scale)', `url(#scale-${i + 1})`);
    groups.push(`<g transform="translate(0 ${y})">\n${body}</g>`);
    y += h;
    width = Math.max(width, w);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y}" viewBox="0 0 ${width} ${y}" font-family="Helvetica, Arial, sans-serif" font-size="12">\n${groups.join('\n')}\n</svg>\n`;
}
