// Test helper: writes a run with known outcomes into a store through the store API (createRun).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRun } from '../../store/create-run.js';
import type { EpisodeRow } from '../../store/episode-row.js';
import type { RunManifest } from '../../store/manifest.js';
import { conditionsOf } from '../../spec/conditions.js';
import { seedFor } from '../../spec/seed-for.js';
import { parseSweepSpec } from '../../spec/sweep-spec.js';

/** A fresh temporary store directory. */
export function tempStore(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'prove-diff-'));
}

/** The seed's sweep spec (four axes held at one value each), with `replicates` and optional extra values. */
export function seedSpecText(replicates = 8, slack: readonly number[] = [4]): string {
  return [
    'target_id = "poisson-tasks-example"',
    't_unit = "turns"',
    `replicates = ${replicates}`,
    '[axes.slack]',
    'type = "continuous"',
    `values = [${slack.join(', ')}]`,
    '[axes.horizon]',
    'type = "continuous"',
    'values = [8]',
    '[axes.strictness]',
    'type = "categorical"',
    'values = ["strict"]',
    '[axes.generator_hash]',
    'type = "categorical"',
    'values = ["49a5f64878314b71ace9bfebeb18050363cefebeedefadf24098778eed895b05"]',
    '',
  ].join('\n');
}

/**
 * Writes one run: `outcomes(conditionIndex, r)` gives each episode's outcome (null: the target crashed).
 * Returns the closed manifest.
 */
export async function buildRun(
  store: string,
  opts: {
    specText: string;
    salt?: string;
    maxMde?: number;
    now?: Date;
    /** Rows per parquet part (createRun's `partRows`). */
    partRows?: number;
    outcomes: (condition: number, r: number) => string | null;
    /** Overrides per episode (outcome, score, meta, error), given the condition's axis values. */
    extra?: (values: Readonly<Record<string, unknown>>, condition: number, r: number) => Partial<Pick<EpisodeRow, 'outcome' | 'score' | 'meta' | 'error' | 't'>>;
  },
): Promise<RunManifest> {
  const spec = parseSweepSpec(opts.specText);
  const salt = opts.salt ?? '0123456789abcdef';
  const w = await createRun(store, { spec, specText: opts.specText, target: 'test:fixture', salt, maxMde: opts.maxMde ?? 0.99, now: opts.now, ...(opts.partRows !== undefined ? { partRows: opts.partRows } : {}) });
  const rows: EpisodeRow[] = [];
  conditionsOf(spec).forEach((c, ci) => {
    for (let r = 0; r < spec.replicates; r++) {
      const outcome = opts.outcomes(ci, r);
      rows.push({
        run_id: w.manifest.run_id,
        condition: c.label,
        ...c.values,
        replicate_index: r,
        seed: seedFor(salt, r),
        outcome,
        t: outcome === 'truncated' ? 8 : 2,
        score: null,
        error: outcome === null ? 'target crashed' : null,
        meta: JSON.stringify({ secret_prompt: 'never exported' }),
        duration_ms: 1,
        ...(opts.extra ? opts.extra(c.values, ci, r) : {}),
      });
    }
  });
  await w.append(rows);
  return w.close('complete');
}

/** Outcomes from per-condition paired tables: the first `both` pairs pass in both, then rise, fall, neither. */
export function fromTables(
  tables: readonly { both: number; rise: number; fall: number; neither: number }[],
  event = 'failed',
  other = 'passed',
): { before: (c: number, r: number) => string; after: (c: number, r: number) => string } {
  const at = (c: number, r: number): [boolean, boolean] => {
    const t = tables[c];
    if (t === undefined) throw new RangeError(`no table for condition ${c}`);
    if (r < t.both) return [true, true];
    if (r < t.both + t.rise) return [false, true];
    if (r < t.both + t.rise + t.fall) return [true, false];
    return [false, false];
  };
  return {
    before: (c, r) => (at(c, r)[0] ? event : other),
    after: (c, r) => (at(c, r)[1] ? event : other),
  };
}
