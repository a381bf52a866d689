// Builds a store with two runs for the diff benchmark: 100 conditions (two axes, 10 x 10) x N/100
// replicates each, written through createRun in parts of 10,000 rows, meta of ~200 bytes per episode,
// outcomes passed / failed / truncated with a few crashes (null outcome), no scores (the diff compares
// outcomes, as DuckDB's query does).
// Usage (from the diff benchmark): node --conditions=poisson-source --import tsx bench/diff-data.ts STORE EPISODES
import { createRun } from '../src/store/create-run.js';
import type { EpisodeRow } from '../src/store/episode-row.js';
import { conditionsOf } from '../src/spec/conditions.js';
import { seedFor } from '../src/spec/seed-for.js';
import { parseSweepSpec } from '../src/spec/sweep-spec.js';

/** The spec of the benchmark's runs: 100 conditions, `replicates` each. */
export function diffSpecText(replicates: number): string {
  return [
    'target_id = "diff-bench"',
    't_unit = "turns"',
    `replicates = ${replicates}`,
    '[axes.slack]',
    'type = "continuous"',
    `values = [${Array.from({ length: 10 }, (_, i) => i).join(', ')}]`,
    '[axes.model]',
    'type = "categorical"',
    `values = [${Array.from({ length: 10 }, (_, i) => `"model-${i}"`).join(', ')}]`,
    '',
  ].join('\n');
}

/** A deterministic outcome of (run, condition, replicate): ~70% passed, ~25% failed, ~4% truncated, ~1% crashed. */
function outcomeOf(run: number, c: number, r: number): string | null {
  const h = (Math.imul(r + 1, 2654435761) ^ Math.imul(c + 7, 40503) ^ (run * 0x9e3779b9)) >>> 0;
  const x = h % 100;
  if (x < 1) return null;
  if (x < 5) return 'truncated';
  if (x < 30) return 'failed';
  return 'passed';
}

export async function buildDiffStore(store: string, episodes: number): Promise<void> {
  const replicates = Math.max(1, Math.round(episodes / 100));
  const specText = diffSpecText(replicates);
  const spec = parseSweepSpec(specText);
  const conditions = conditionsOf(spec);
  for (let run = 0; run < 2; run++) {
    const w = await createRun(store, { spec, specText, target: 'bench:diff', salt: 'diffbench', maxMde: 0.05, now: new Date(Date.UTC(2026, 10, 6, 23, 13, 18 + run)) });
    let rows: EpisodeRow[] = [];
    for (let ci = 0; ci < conditions.length; ci++) {
      const c = conditions[ci]!;
      for (let r = 0; r < replicates; r++) {
        const seed = seedFor('diffbench', r);
        const outcome = outcomeOf(run, ci, r);
        rows.push({
          run_id: w.manifest.run_id,
          condition: c.label,
          ...c.values,
          replicate_index: r,
          seed,
          outcome,
          t: outcome === 'truncated' ? 8 : 2 + (seed % 3),
          score: null,
          error: outcome === null ? 'target crashed' : null,
          meta: JSON.stringify({ arm_id: 'depth:d3', scenario_id: seed.toString(16).padStart(16, '0'), task_id: (seed * 7).toString(16), split: 'eval', sampled_calls: 3}),
          duration_ms: (seed % 1000) / 7,
        });
        if (rows.length === 10_000) {
          await w.append(rows);
          rows = [];
        }
      }
    }
    await w.append(rows);
    await w.close('complete');
  }
}

if (process.argv[1]?.endsWith('diff-data.ts')) {
  const [store, n] = process.argv.slice(2);
  await buildDiffStore(store as string, Number(n));
}
