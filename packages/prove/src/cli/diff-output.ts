// The diff at the CLI's edge: the `next:` line written from the report's `next` words, and the one
// mapping from the library's report to what `diff --json` prints (the same object, `next` as that line).
import type { MultiDiffReport } from '../diff/compare-runs.js';
import type { ReportGrid } from '../diff/report-grid.js';
import type { ReportPanels } from '../diff/report-panels.js';
import type { DiffReport } from '../diff/types.js';
import { plainProveCommand } from './format.js';

/** A diff report as `diff --json` prints it: the library's object with `next` as one shell-quoted line. */
export type DiffReportJson = Omit<DiffReport, 'next'> & { readonly next: string };

/** The several-candidate report as `diff BASE C1 C2 ... --json` prints it. */
export type MultiDiffReportJson = Omit<MultiDiffReport, 'candidates'> & { readonly candidates: readonly DiffReportJson[] };

/**
 * The command of the report's `next:` line, as it works when pasted: `poisson-prove` and the report's
 * `next` words, each quoted by `shellRef` (the default store: the line names no `--store`).
 *
 * @example
 * ```ts
 * nextLine({ next: ['report', 'run a', 'run b', '--x', 'slack'] }); // 'poisson-prove report "run a" "run b" --x slack'
 * ```
 */
export function nextLine(report: Pick<DiffReport, 'next'>): string {
  return plainProveCommand(...report.next);
}

/** The report as `diff --json` prints it (field order kept: `next` stays where the report has it). */
export function diffReportJson(report: DiffReport): DiffReportJson {
  return { ...report, next: nextLine(report) };
}

/** The several-candidate report as `diff --json` prints it: each candidate's report mapped by {@link diffReportJson}. */
export function multiDiffReportJson(report: MultiDiffReport): MultiDiffReportJson {
  return { ...report, candidates: report.candidates.map(diffReportJson) };
}

/** A report grid as `report --json` prints it: its diff mapped by {@link diffReportJson}. */
export function reportGridJson(grid: ReportGrid): Omit<ReportGrid, 'diff'> & { readonly diff: DiffReportJson } {
  return { ...grid, diff: diffReportJson(grid.diff) };
}

/** Several report grids (`report BASE C1 C2 ... --json`): each grid mapped by {@link reportGridJson}. */
export function reportPanelsJson(p: ReportPanels): { readonly panels: ReturnType<typeof reportGridJson>[] } {
  return { ...p, panels: p.panels.map(reportGridJson) };
}
