// The diff at the CLI's edge: the `next:` line written from the report's `next` words, and the one
// mapping from the library's report to what `diff --json` prints (the same object, `next` as that line).
import type { MultiDiffReport } from '../diff/compare-runs.js';
import type { ReportGrid } from '../diff/report-grid.js';
import type { ReportPanels } from '../diff/report-panels.js';
import type { DiffReport } from '../diff/types.js';
import { plainProveCommand, type ProveCommand } from './format.js';

/** A diff report as `diff --json` prints it: the library's object with `next` as one shell-quoted line. */
export type DiffReportJson = Omit<DiffReport, 'next'> & { readonly next: string };

/** The several-candidate report as `diff BASE C1 C2 ... --json` prints it. */
export type MultiDiffReportJson = Omit<MultiDiffReport, 'candidates'> & { readonly candidates: readonly DiffReportJson[] };

/**
 * The command of the report's `next:` line, as it works when pasted: `poisson-prove` and the report's
 * `next` words, each quoted by `shellRef`. `command` writes the line; the CLI passes its context's
 * `proveCommand`, which names `--store` when the store read is not the one a bare command would use. The
 * default names no `--store`.
 *
 * @example
 * ```ts
 * nextLine({ next: ['report', 'run a', 'run b', '--x', 'slack'] }); // 'poisson-prove report "run a" "run b" --x slack'
 * ```
 */
export function nextLine(report: Pick<DiffReport, 'next'>, command: ProveCommand = plainProveCommand): string {
  return command(...report.next);
}

/** The report as `diff --json` prints it (field order kept: `next` stays where the report has it). */
export function diffReportJson(report: DiffReport, command: ProveCommand = plainProveCommand): DiffReportJson {
  return { ...report, next: nextLine(report, command) };
}

/** The several-candidate report as `diff --json` prints it: each candidate's report mapped by {@link diffReportJson}. */
export function multiDiffReportJson(report: MultiDiffReport, command: ProveCommand = plainProveCommand): MultiDiffReportJson {
  return { ...report, candidates: report.candidates.map((c) => diffReportJson(c, command)) };
}

/** A report grid as `report --json` prints it: its diff mapped by {@link diffReportJson}. */
export function reportGridJson(grid: ReportGrid, command: ProveCommand = plainProveCommand): Omit<ReportGrid, 'diff'> & { readonly diff: DiffReportJson } {
  return { ...grid, diff: diffReportJson(grid.diff, command) };
}

/** Several report grids (`report BASE C1 C2 ... --json`): each grid mapped by {@link reportGridJson}. */
export function reportPanelsJson(p: ReportPanels, command: ProveCommand = plainProveCommand): { readonly panels: ReturnType<typeof reportGridJson>[] } {
  return { ...p, panels: p.panels.map((g) => reportGridJson(g, command)) };
}
