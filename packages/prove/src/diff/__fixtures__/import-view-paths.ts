// Test helper: imported runs of each harness (inspect_ai, lm-evaluation-harness, promptfoo; generated
// logs and the real inspect_ai logs of /work/shared/fixtures/harness-logs) beside the sweep runs of
// read-paths.ts, and the outputs that read them: diff --json, compare, report, export and inspect of the
// imports, and the view page (its HTML, the discordant pairs it lists and those its server returns) of
// imports and of sweep runs; run ids, dates and paths replaced by stable names, so the outputs pinned in
// import-view-paths.json by gen-import-view-paths.ts compare across machines and runs.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTruth, writeInspect, writePromptfoo } from '../../import/__fixtures__/harness-gen.js';
import { importRun } from '../../import/import-run.js';
import { listRuns } from '../../store/list-runs.js';
import { resolveRun } from '../../store/resolve-run.js';
import { inspectRun } from '../../store/inspect-run.js';
import { viewStore } from '../../view/__fixtures__/view-store.js';
import { serveView } from '../../view/serve.js';
import { viewDiff } from '../../view/view-diff.js';
import { reportGridJson } from '../../cli/diff-output.js';
import { compareRuns, formatMultiDiffText } from '../compare-runs.js';
import { diffRuns } from '../diff-runs.js';
import { exportRuns, formatExportCsv, formatExportMarkdown } from '../export.js';
import { formatDiffText } from '../format-text.js';
import { formatPairsText } from '../format-pairs.js';
import { readDiscordantPairs } from '../read-pairs.js';
import { formatGridText, readReportRuns, reportGrid } from '../report-grid.js';
import { renderGridSvg } from '../svg.js';
import { writeReadPathRuns, type ReadPathRuns } from './read-paths.js';

/** The real inspect_ai logs (README.md there). */
export const HARNESS = new URL('../../../../../../shared/fixtures/harness-logs/', import.meta.url).pathname;

/** The refs of the runs written by {@link writeImportViewRuns}: read-paths.ts's, and the imports added here. */
export type ImportViewRuns = ReadPathRuns & {
  /** inspect_ai logs generated from one truth: .eval zips (n1), .json logs (n2). */
  readonly n1: string;
  readonly n2: string;
  /** promptfoo results.json, one per run, the topic as an axis. */
  readonly p1: string;
  readonly p2: string;
  /** The real inspect_ai logs: the two popularity runs (r1 unscored, r2 scored), one log as .eval and .json (f1, f2). */
  readonly r1: string;
  readonly r2: string;
  readonly f1: string;
  readonly f2: string;
};

/** Writes read-paths.ts's runs and the imports of each harness into `store`. */
export async function writeImportViewRuns(store: string): Promise<ImportViewRuns> {
  const runs = await writeReadPathRuns(store);
  const truth = makeTruth(60, 7);
  const at = (s: number): Date => new Date(Date.UTC(2026, 0, 2, 10, 0, s));
  const n1 = await importRun(store, { format: 'inspect', files: await writeInspect(`${store}-in1`, truth, 0, true), now: at(0) });
  const n2 = await importRun(store, { format: 'inspect', files: await writeInspect(`${store}-in2`, truth, 1, false), now: at(1) });
  const group = { provider: 'openai:gpt-4o-mini', prompt: 'Q: {{question}}' };
  const p1 = await importRun(store, { format: 'promptfoo', files: [await writePromptfoo(`${store}-pf1.json`, truth, [{ run: 0, ...group }])], axes: ['metadata.topic'], now: at(2) });
  const p2 = await importRun(store, { format: 'promptfoo', files: [await writePromptfoo(`${store}-pf2.json`, truth, [{ run: 1, ...group }])], axes: ['metadata.topic'], now: at(3) });
  const inspect = join(HARNESS, 'inspect');
  const real = async (file: string, s: number): Promise<string> => (await importRun(store, { format: 'inspect', files: [join(inspect, file)], now: at(s) })).runs[0]?.run_id as string;
  const r1 = await real('2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval', 4);
  const r2 = await real('2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval', 5);
  const f1 = await real('log_formats.eval', 6);
  const f2 = await real('log_formats.json', 7);
  const id = (r: { runs: readonly { run_id: string }[] }): string => r.runs[0]?.run_id as string;
  return { ...runs, n1: id(n1), n2: id(n2), p1: id(p1), p2: id(p2), r1, r2, f1, f2 };
}

/** Replaces the run ids, the stores' and the logs' paths by stable names. */
function stable(text: string, paths: Record<string, string>, runs: Record<string, string>): string {
  // The page's heatmaps are SVG in base64 (naming the runs): decoded, so the names in them are replaced too.
  let out = text.replace(/data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/g, (_m, b64: string) => `data:image/svg+xml;decoded,${Buffer.from(b64, 'base64').toString('utf8')}`);
  for (const [k, p] of Object.entries(paths)) out = out.split(p).join(`<${k}>`);
  for (const [k, id] of Object.entries(runs)) out = out.split(id).join(`<${k}>`);
  return out;
}

/** A value as JSON (NaN as the text "NaN", so the outputs' NaNs are pinned too). */
function json(x: unknown, indent?: number): string {
  return JSON.stringify(x, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v), indent);
}

async function attempt(f: () => Promise<string>): Promise<string> {
  try {
    return await f();
  } catch (e) {
    return `error ${(e as { code?: string }).code ?? ''}: ${(e as Error).message}`;
  }
}

/** The discordant pairs the view server returns for `condition` (GET /pairs?condition=...), as text. */
async function servedPairs(store: string, a: string, b: string, conditions: readonly string[], options: { limit?: number } = {}): Promise<string> {
  const server = await serveView(store, a, b, options);
  try {
    const out: string[] = [];
    for (const c of conditions) {
      const res = await fetch(`${server.url}pairs?condition=${encodeURIComponent(c)}`);
      out.push(`${res.status} ${await res.text()}`);
    }
    return out.join('\n');
  } finally {
    await server.close();
  }
}

/**
 * The outputs of diff (JSON and text), compare, report, export and inspect on each pair of imports,
 * and of the view (page, listed pairs, served pairs) on imports and sweep runs, by case name.
 */
export async function importViewOutputs(store: string, runs: ImportViewRuns): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  // The runs' names too: an inspect_ai import's name holds a hash of its files (a zip's times differ per write).
  const names: Record<string, string> = {};
  for (const [k, id] of Object.entries(runs)) names[`${k} name`] = (await resolveRun(store, id)).name;
  const paths = { harness: HARNESS, store, ...names };
  const put = async (name: string, f: () => Promise<string>): Promise<void> => {
    out[name] = stable(await attempt(f), paths, runs);
  };
  const imports: [string, string, string][] = [
    ['lm-eval', runs.i1, runs.i2],
    ['inspect', runs.n1, runs.n2],
    ['promptfoo', runs.p1, runs.p2],
    ['inspect real popularity', runs.r1, runs.r2],
    ['inspect real formats', runs.f1, runs.f2],
  ];
  for (const [name, a, b] of imports) {
    const axes = Object.keys((await resolveRun(store, a)).axes ?? {}).sort();
    await put(`diff ${name}`, async () => {
      const r = await diffRuns(store, a, b);
      return `${json(r, 1)}\n--- text\n${formatDiffText(r)}`;
    });
    await put(`diff ${name} full failed`, async () => json(await diffRuns(store, a, b, { full: true, events: ['failed'] }), 1));
    await put(`diff ${name} scores`, async () => json(await diffRuns(store, b, a, { scores: true, method: 'midp' }), 1));
    await put(`compare ${name}`, async () => {
      const r = await compareRuns(store, a, [b], { events: ['failed'] });
      return `${json(r, 1)}\n--- text\n${formatMultiDiffText(r)}`;
    });
    await put(`pairs ${name}`, async () => formatPairsText(await readDiscordantPairs(store, await diffRuns(store, a, b, { events: ['failed'] }), { limit: 3 })));
    for (const [x, y] of [[axes[0], axes[1]], [axes[1], undefined]] as const) {
      if (x === undefined) continue;
      await put(`report ${name} ${x}${y === undefined ? '' : ` ${y}`}`, async () => {
        const [ra, rb] = await readReportRuns(store, [a, b], { verb: 'report' });
        const g = reportGrid(ra!, rb!, { x, ...(y !== undefined ? { y } : {}), event: 'failed' });
        return `${formatGridText(g)}--- svg\n${renderGridSvg(g)}--- json\n${json(reportGridJson(g))}`;
      });
    }
    await put(`export ${name}`, async () => {
      const t = await exportRuns(store, [a, b], axes.length > 0 ? { by: [axes[axes.length - 1] as string] } : {});
      return `${json(t)}\n--- csv\n${formatExportCsv(t)}--- md\n${formatExportMarkdown(t)}`;
    });
    for (const [ref, side] of [[a, 'before'], [b, 'after']] as const) {
      await put(`inspect ${name} ${side}`, async () => {
        const failed = await inspectRun(store, ref, { event: 'failed', limit: 3 });
        const none = await inspectRun(store, ref, { event: null, limit: 2 });
        const strip = (r: typeof failed): unknown => ({ ...r, manifest: r.manifest.run_id, episodes: r.episodes.map(({ duration_ms: _d, ...e }) => e) });
        return json([strip(failed), strip(none)], 1);
      });
    }
  }
  const views: [string, string, string, Parameters<typeof viewDiff>[3]][] = [
    ['view A B', runs.a, runs.b, {}],
    ['view A B full limit', runs.a, runs.b, { full: true, limit: 2, events: ['failed', 'truncated'] }],
    ['view B A no scores', runs.b, runs.a, { scores: false }],
    ['view A B cluster', runs.a, runs.b, { cluster: 'task' }],
    ['view B D unpaired', runs.b, runs.d, {}],
    ['view A C partial', runs.a, runs.c, {}],
    ['view lm-eval', runs.i1, runs.i2, {}],
    ['view inspect', runs.n1, runs.n2, { limit: 4 }],
    ['view promptfoo', runs.p1, runs.p2, {}],
    ['view inspect real popularity', runs.r1, runs.r2, {}],
  ];
  for (const [name, a, b, opts] of views) {
    await put(name, async () => {
      const v = await viewDiff(store, a, b, opts);
      return `${v.html}\n--- pairs\n${json(v.pairs, 1)}`;
    });
  }
  const served: [string, string, string][] = [
    ['serve A B', runs.a, runs.b],
    ['serve lm-eval', runs.i1, runs.i2],
    ['serve promptfoo', runs.p1, runs.p2],
  ];
  for (const [name, a, b] of served) {
    await put(name, async () => {
      const conditions = (await diffRuns(store, a, b)).rows.map((r) => r.condition);
      const page = (await viewDiff(store, a, b, { serve: true })).html;
      return `${page}\n--- served\n${await servedPairs(store, a, b, [...new Set(conditions)].slice(0, 3).concat(['no such condition']), { limit: 3 })}`;
    });
  }
  // The view fixture's store: markup in labels, meta and errors, a cached answer (private), crashes.
  const evil = await viewStore();
  try {
  const evilRuns = Object.fromEntries((await listRuns(evil)).map((r, i) => [`evil ${i}`, r.run_id]));
  for (const [name, a, b, opts] of [
    ['view evil 3 2', '#3', '#2', {}],
    ['view evil 3 1 private', '#3', '#1', { private: true, limit: 50 }],
  ] as const) {
    out[name] = stable(await attempt(async () => {
      const v = await viewDiff(evil, a, b, opts);
      return `${v.html}\n--- pairs\n${json(v.pairs, 1)}`;
    }), { store: evil }, evilRuns);
  }
  } finally {
    await rm(evil, { recursive: true, force: true });
  }
  return out;
}
