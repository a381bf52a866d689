// Test helper: a store whose runs exercise every read path of report, export and inspect, and the
// outputs of those verbs on it with the run ids, dates and store path replaced by stable names (so the
// outputs pinned in read-paths.json by gen-read-paths.ts compare across machines and runs).
//   A: 30 conditions (slack x strictness x task) x 40 replicates, scores with gaps, `meta.hard_failure`
//      on some episodes, non-integer t, crashes, then `resume --retry-errors` (superseded rows);
//   B: the same design, other outcomes, no scores, no retries;
//   C: the same design, interrupted after half its episodes (read with `partial`);
//   D: B's target on another salt (a report of A or B and D is unpaired);
//   I1, I2: two lm-eval imports (pairing by identity).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { TargetConfig, TargetResult } from 'poisson-core';
import { resume } from '../../executor/resume.js';
import { sweep } from '../../executor/sweep.js';
import { makeTruth, writeLmEval } from '../../import/__fixtures__/harness-gen.js';
import { importRun } from '../../import/import-run.js';
import { createRun } from '../../store/create-run.js';
import type { EpisodeRow } from '../../store/episode-row.js';
import { inspectRun } from '../../store/inspect-run.js';
import { listRuns } from '../../store/list-runs.js';
import { conditionsOf } from '../../spec/conditions.js';
import { seedFor } from '../../spec/seed-for.js';
import { parseSweepSpec } from '../../spec/sweep-spec.js';
import { exportRuns, formatExportCsv, formatExportMarkdown, type ExportOptions } from '../export.js';
import { readRunForDiff } from '../read-run.js';
import { reportGridJson, reportPanelsJson } from '../../cli/diff-output.js';
import { formatGridText, reportGrid, type ReportOptions } from '../report-grid.js';
import { formatPanelsText, renderPanelsSvg, reportPanels } from '../report-panels.js';
import { renderGridSvg } from '../svg.js';

const SALT = '00c0ffee00c0ffee';

export const READ_PATHS_SPEC = `target_id = "read-paths"
t_unit = "turns"
replicates = 40

[axes.slack]
type = "continuous"
values = [1, 2, 3]

[axes.strictness]
type = "categorical"
values = ["strict", "lax"]

[axes.task]
type = "categorical"
values = ["t0", "t1", "t2", "t3", "t4"]
`;

function mix(seed: number, k: number): number {
  return (Math.imul((seed ^ (k * 0x9e3779b9)) >>> 0, 2654435761) >>> 0) % 1000;
}

/** Run A's target: `down` makes every tenth seed crash (the first sweep), and still 1 in 40 in the retry. */
function targetA(state: { down: boolean }) {
  return async (cfg: TargetConfig): Promise<TargetResult> => {
    const h = mix(cfg.seed, 1);
    if (h < (state.down ? 100 : 25)) throw new Error(`HTTP 500 on seed ${cfg.seed}`);
    const slack = Number(cfg['slack']);
    const outcome = h < 300 + 40 * slack ? 'failed' : h < 360 + 40 * slack ? 'truncated' : 'passed';
    const hard = mix(cfg.seed, 2) % 7;
    return {
      outcome,
      t: (mix(cfg.seed, 3) % 13) * 0.37 + 0.05,
      score: mix(cfg.seed, 4) % 5 === 0 ? null : (mix(cfg.seed, 5) % 97) / 97 + slack / 10,
      meta: { note: 'a', ...(hard === 0 ? { hard_failure: true } : hard === 1 ? { hard_failure: false } : {}), retried: !state.down },
    };
  };
}

/** Run B's target: other outcomes, no score, crashes on 1 seed in 50. */
async function targetB(cfg: TargetConfig): Promise<TargetResult> {
  const h = mix(cfg.seed, 6);
  if (h < 20) throw new Error(`timeout on seed ${cfg.seed}`);
  const task = String(cfg['task']);
  const outcome = h < 250 + (task === 't3' ? 300 : 0) ? 'failed' : h < 330 ? 'truncated' : 'passed';
  return { outcome, t: (h % 11) * 0.61, meta: { note: 'b' } };
}

/** The refs of the runs written by {@link writeReadPathRuns}. */
export type ReadPathRuns = { readonly a: string; readonly b: string; readonly c: string; readonly d: string; readonly i1: string; readonly i2: string };

/** Writes runs A, B, C, I1, I2 into `store` (see the top of this file). */
export async function writeReadPathRuns(store: string): Promise<ReadPathRuns> {
  const state = { down: true };
  const a = await sweep({ spec: READ_PATHS_SPEC, target: targetA(state), store, salt: SALT, maxMde: 0.99, partRows: 50, now: new Date(Date.UTC(2026, 0, 1, 10, 0, 0)) });
  state.down = false;
  await resume({ store, ref: a.run_id, target: targetA(state), retryErrors: true });
  const b = await sweep({ spec: READ_PATHS_SPEC, target: targetB, store, salt: SALT, maxMde: 0.99, partRows: 64, now: new Date(Date.UTC(2026, 0, 1, 10, 0, 1)) });
  // D: B's target on another salt (its seeds differ from A's: a report of A and D is unpaired).
  const d = await sweep({ spec: READ_PATHS_SPEC, target: targetB, store, salt: 'feedfacefeedface', maxMde: 0.99, partRows: 100, now: new Date(Date.UTC(2026, 0, 1, 10, 0, 5)) });
  // C: interrupted after half its pairs (written through the store API).
  const spec = parseSweepSpec(READ_PATHS_SPEC);
  const w = await createRun(store, { spec, specText: READ_PATHS_SPEC, target: 'test:read-paths', salt: SALT, maxMde: 0.99, now: new Date(Date.UTC(2026, 0, 1, 10, 0, 2)) });
  const rows: EpisodeRow[] = [];
  conditionsOf(spec).forEach((c, ci) => {
    for (let r = 0; r < 40; r++) {
      if ((ci * 40 + r) % 2 === 1) continue;
      const seed = seedFor(SALT, r);
      const h = mix(seed, 7 + ci);
      rows.push({ run_id: w.manifest.run_id, condition: c.label, ...c.values, replicate_index: r, seed, outcome: h < 400 ? 'failed' : 'passed', t: h / 100, score: null, error: null, meta: '{}', duration_ms: 1 });
    }
  });
  await w.append(rows.slice(0, 300));
  await w.append(rows.slice(300));
  await w.close('interrupted');
  // I1, I2: lm-eval samples of two runs.
  const truth = makeTruth(40, 5);
  const files1 = await writeLmEval(join(store, '..', `${store.split('/').pop() ?? 'x'}-lm0`), truth, 0);
  const files2 = await writeLmEval(join(store, '..', `${store.split('/').pop() ?? 'x'}-lm1`), truth, 1);
  const i1 = await importRun(store, { format: 'lm-eval', files: files1, now: new Date(Date.UTC(2026, 0, 1, 10, 0, 3)) });
  const i2 = await importRun(store, { format: 'lm-eval', files: files2, now: new Date(Date.UTC(2026, 0, 1, 10, 0, 4)) });
  return { a: a.run_id, b: b.run_id, c: w.manifest.run_id, d: d.run_id, i1: i1.runs[0]?.run_id as string, i2: i2.runs[0]?.run_id as string };
}

/** Replaces the run ids and the store path by stable names. */
function stable(text: string, store: string, runs: ReadPathRuns): string {
  let out = text.split(store).join('<store>');
  for (const [k, id] of Object.entries(runs)) out = out.split(id).join(`<${k}>`);
  return out;
}

/** A value as JSON (NaN as the text "NaN", so the outputs' NaNs are pinned too). */
function json(x: unknown, indent?: number): string {
  return JSON.stringify(x, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v), indent);
}

/** An output as pinned: its sha256 and length, and its text when it is short (under 20,000 characters). */
export type PinnedOutput = { readonly sha256: string; readonly chars: number; readonly text?: string };

/** The outputs as pinned in read-paths.json. */
export function pinOutputs(out: Record<string, string>): Record<string, PinnedOutput> {
  return Object.fromEntries(
    Object.entries(out).map(([k, v]) => [k, { sha256: createHash('sha256').update(v).digest('hex'), chars: v.length, ...(v.length < 20_000 ? { text: v } : {}) }]),
  );
}

async function attempt(f: () => Promise<string>): Promise<string> {
  try {
    return await f();
  } catch (e) {
    return `error ${(e as { code?: string }).code ?? ''}: ${(e as Error).message}`;
  }
}

/**
 * The outputs of export (JSON, CSV, Markdown), report (text, SVG, JSON) and inspect (JSON) on the runs,
 * by case name, with stable names for the ids and the store.
 */
export async function readPathOutputs(store: string, runs: ReadPathRuns, read: { readonly report?: 'rows' | 'columns' } = {}): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const exports: [string, string[], ExportOptions][] = [
    ['export A B', [runs.a, runs.b], {}],
    ['export B', [runs.b], {}],
    ['export B by', [runs.b], { by: ['slack'] }],
    ['export A B by', [runs.a, runs.b], { by: ['slack', 'slack,strictness', 'task'] }],
    ['export A B cluster', [runs.a, runs.b], { cluster: 'task' }],
    ['export B cluster', [runs.b], { cluster: 'strictness' }],
    ['export A C partial', [runs.a, runs.c], { partial: true }],
    ['export B C partial by', [runs.b, runs.c], { partial: true, by: ['task'] }],
    ['export C refused', [runs.c], {}],
    ['export A bad by', [runs.a], { by: ['model'] }],
    ['export I1 I2', [runs.i1, runs.i2], {}],
    ['export I1 I2 by', [runs.i1, runs.i2], { by: ['task'] }],
  ];
  for (const [name, refs, opts] of exports) {
    out[name] = stable(
      await attempt(async () => {
        const t = await exportRuns(store, refs, opts);
        return `${json(t)}\n--- csv\n${formatExportCsv(t)}--- md\n${formatExportMarkdown(t)}`;
      }),
      store,
      runs,
    );
  }
  const reports: [string, string, string[], ReportOptions, boolean][] = [
    ['report A B slack strictness', runs.a, [runs.b], { x: 'slack', y: 'strictness', event: 'failed' }, false],
    ['report A B task', runs.a, [runs.b], { x: 'task', event: 'truncated' }, false],
    ['report A B slack cluster', runs.a, [runs.b], { x: 'slack', event: 'failed', cluster: 'task' }, false],
    ['report A B no event', runs.a, [runs.b], { x: 'slack' }, false],
    ['report A B C panels', runs.a, [runs.b, runs.c], { x: 'task', y: 'slack', event: 'failed' }, true],
    ['report I1 I2', runs.i1, [runs.i2], { x: 'task', event: 'failed' }, false],
    ['report A D unpaired', runs.a, [runs.d], { x: 'slack', y: 'task', event: 'failed' }, false],
    ['report B D unpaired cluster', runs.b, [runs.d], { x: 'slack', event: 'failed', cluster: 'task' }, false],
  ];
  for (const [name, base, cands, opts, partial] of reports) {
    out[name] = stable(
      await attempt(async () => {
        const opts0 = { partial, verb: 'report' };
        // (imported when asked for: the generator runs on the code before readReportRuns existed)
        const [b0, ...cs] = read.report === 'columns'
          ? await (await import('../report-grid.js')).readReportRuns(store, [base, ...cands], opts0)
          : await Promise.all([base, ...cands].map((r) => readRunForDiff(store, r, opts0)));
        if (cs.length > 1) {
          const p = reportPanels(b0!, cs, opts);
          return `${formatPanelsText(p)}--- svg\n${renderPanelsSvg(p)}--- json\n${json(reportPanelsJson(p))}`;
        }
        const g = reportGrid(b0!, cs[0]!, opts);
        return `${formatGridText(g)}--- svg\n${renderGridSvg(g)}--- json\n${json(reportGridJson(g))}`;
      }),
      store,
      runs,
    );
  }
  const inspects: [string, string, { event?: string | null; limit?: number }][] = [
    ['inspect A', runs.a, {}],
    ['inspect A failed', runs.a, { event: 'failed', limit: 3 }],
    ['inspect A none', runs.a, { event: 'passed', limit: 0 }],
    ['inspect B truncated', runs.b, { event: 'truncated', limit: 4 }],
    ['inspect C', runs.c, { event: 'failed', limit: 2 }],
    ['inspect I1', runs.i1, { event: 'failed', limit: 2 }],
  ];
  for (const [name, ref, opts] of inspects) {
    out[name] = stable(
      await attempt(async () => {
        const r = await inspectRun(store, ref, opts);
        // The manifest's times and the episodes' durations differ between two writes of the store.
        return json({ ...r, manifest: r.manifest.run_id, episodes: r.episodes.map(({ duration_ms: _d, ...e }) => e) }, 1);
      }),
      store,
      runs,
    );
  }
  out['runs'] = stable(json((await listRuns(store)).map((r) => ({ run_id: r.run_id, name: r.name, status: r.status, counts: r.counts })), 1), store, runs);
  return out;
}
