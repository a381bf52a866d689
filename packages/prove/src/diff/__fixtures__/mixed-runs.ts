// Test helper: three runs that exercise every path of the diff's pairing (several conditions, one
// condition in one run only, replicates in one run only, crashes, truncated episodes, scores with gaps,
// hard-failure flags, a run on another salt), and the reports compared by columnar-diff.test.ts.
// gen-columnar-diff.ts writes those reports, as the diff computed them before it read columns, into
// columnar-diff.json.
import { createRun } from '../../store/create-run.js';
import type { EpisodeRow } from '../../store/episode-row.js';
import { conditionsOf } from '../../spec/conditions.js';
import { seedFor } from '../../spec/seed-for.js';
import { parseSweepSpec } from '../../spec/sweep-spec.js';
import { diffRuns } from '../diff-runs.js';
import { diffReportJson } from '../../cli/diff-output.js';
import type { DiffOptions, DiffReport } from '../types.js';

function specText(slack: readonly number[], replicates: number): string {
  return [
    'target_id = "mixed"',
    't_unit = "turns"',
    `replicates = ${replicates}`,
    '[axes.slack]',
    'type = "continuous"',
    `values = [${slack.join(', ')}]`,
    '[axes.strictness]',
    'type = "categorical"',
    'values = ["strict", "lenient"]',
    '',
  ].join('\n');
}

function hash(...xs: number[]): number {
  let h = 2166136261;
  for (const x of xs) h = Math.imul(h ^ x, 16777619) >>> 0;
  return h;
}

async function writeRun(store: string, run: number, opts: { slack: readonly number[]; replicates: number; salt: string; skip: (c: number, r: number) => boolean; second: number }): Promise<void> {
  const text = specText(opts.slack, opts.replicates);
  const spec = parseSweepSpec(text);
  const w = await createRun(store, { spec, specText: text, target: 'test:mixed', salt: opts.salt, maxMde: 0.3 + 0.1 * run, now: new Date(Date.UTC(2026, 10, 6, 23, 13, opts.second)), partRows: 37 });
  const rows: EpisodeRow[] = [];
  conditionsOf(spec).forEach((c, ci) => {
    for (let r = 0; r < spec.replicates; r++) {
      if (opts.skip(ci, r)) continue;
      const h = hash(run, ci, r) % 100;
      const outcome = h < 4 ? null : h < 14 ? 'truncated' : h < 40 + 5 * ci + (ci === 0 ? 45 * run : 0) ? 'failed' : 'passed';
      const seed = seedFor(opts.salt, r);
      rows.push({
        run_id: w.manifest.run_id,
        condition: c.label,
        ...c.values,
        replicate_index: r,
        seed,
        outcome,
        t: outcome === 'truncated' ? 8 : 2,
        score: outcome === null || h % 9 === 0 ? null : (hash(run + 5, ci, r) % 1000) / 1000 + 0.05 * run,
        error: outcome === null ? 'target crashed' : null,
        meta: JSON.stringify(h % 3 === 0 ? { note: 'no flag' } : { hard_failure: h % 7 === 0, answer: 'x' }),
        duration_ms: 1,
      });
    }
  });
  await w.append(rows);
  await w.close('complete');
}

/** Writes the three runs: #1 and #2 paired (#2 adds slack 8 and misses some replicates), #3 on another salt. */
export async function writeMixedRuns(store: string): Promise<void> {
  await writeRun(store, 0, { slack: [1, 2, 4], replicates: 40, salt: '0123456789abcdef', skip: (c, r) => c === 1 && r % 11 === 3, second: 1 });
  await writeRun(store, 1, { slack: [1, 2, 4, 8], replicates: 44, salt: '0123456789abcdef', skip: (c, r) => c === 2 && r % 5 === 1, second: 2 });
  await writeRun(store, 2, { slack: [1, 2, 4], replicates: 40, salt: 'fedcba9876543210', skip: () => false, second: 3 });
}

/** The diffs compared: name, runs, options. */
export const MIXED_DIFFS: readonly { name: string; a: string; b: string; options: DiffOptions }[] = [
  { name: 'default', a: '#3', b: '#2', options: {} },
  { name: 'full', a: '#3', b: '#2', options: { full: true } },
  { name: 'events', a: '#3', b: '#2', options: { events: ['failed', 'truncated', 'passed'], method: 'midp', full: true } },
  { name: 'no scores', a: '#3', b: '#2', options: { scores: false, full: true } },
  { name: 'cluster', a: '#3', b: '#2', options: { cluster: 'strictness', full: true } },
  { name: 'unpaired', a: '#3', b: '#1', options: { full: true } },
];

/** Every diff of {@link MIXED_DIFFS} as JSON text, run ids replaced by `A`, `B`, `C` (they are random). */
export async function mixedReports(store: string, ids: readonly string[]): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const d of MIXED_DIFFS) {
    // The fixture's runs are incomplete on purpose (crashes, unmatched replicates): read them with
    // `partial`, and leave out what the store's coverage adds (`partial`, `unmatched`), which the row
    // path that wrote columnar-diff.json did not have.
    let text = JSON.stringify(pinnedFields(await diffRuns(store, d.a, d.b, { ...d.options, partial: true })));
    ids.forEach((id, i) => (text = text.split(id).join(`RUN${i + 1}`)));
    out[d.name] = JSON.parse(text);
  }
  return out;
}

/**
 * The fields of a report that columnar-diff.json pins: the report without what later changes added on
 * top of the fields the row path had (the store's coverage: `partial`, `unmatched`; looks and the
 * sequential reading: `looks`, `sequential`; the clustered binary reading: `clustered`; `constant` on
 * the score rows and the pooled line), as `diff --json`
 * writes it (`next` as the command line).
 */
export function pinnedFields(report: DiffReport): Record<string, unknown> {
  const { partial: _p, unmatched: _u, looks: _l, sequential: _s, clustered: _c, ...rest } = diffReportJson(report) as Record<string, unknown>;
  // `constant` on each score row and the pooled line (a comparison whose differences do not vary has no
  // test) came later too; none of these runs' comparisons is constant, so the rest is unchanged.
  const scores = rest['scores'] as { rows: Record<string, unknown>[]; pooled?: Record<string, unknown> } | undefined;
  if (scores !== undefined) {
    const drop = ({ constant: _k, ...r }: Record<string, unknown>): Record<string, unknown> => r;
    rest['scores'] = { ...scores, rows: scores.rows.map(drop), ...(scores.pooled !== undefined ? { pooled: drop(scores.pooled) } : {}) };
  }
  return rest;
}
