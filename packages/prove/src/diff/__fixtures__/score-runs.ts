// Test helper: two runs of a rubric-like model matrix (prompt_variant x task, 6 replicates) whose scores
// and hard-failure flags come from paired-scores.json (written by gen-paired-scores.R).
import { readFileSync } from 'node:fs';
import { buildRun } from './build-run.js';

/** One condition of the fixture, with R's reference values. */
export type ScoreFixtureCondition = {
  task: string;
  prompt_variant: string;
  before: (number | null)[];
  after: (number | null)[];
  hard_before: (boolean | null)[];
  hard_after: (boolean | null)[];
  n: number;
  mean_before: number;
  mean_after: number;
  estimate: number;
  statistic: number;
  df: number;
  p: number;
  lower: number;
  upper: number;
  lower95: number;
  upper95: number;
  hard: { rise: number; fall: number; n: number; p: number };
  p_holm: number;
  p_bh: number;
};

/** The fixture. */
export type ScoreFixture = {
  replicates: number;
  level: number;
  conditions: ScoreFixtureCondition[];
  pooled: { n: number; clusters: number; difference: number; standard_error: number; standard_error_cr1: number; sizes: number[]; t: number; df: number; p: number; lower: number; upper: number };
};

export const scoreFixture = JSON.parse(readFileSync(new URL('./paired-scores.json', import.meta.url), 'utf8')) as ScoreFixture;

/** The matrix spec: prompt_variant x task, categorical, with the fixture's replicates. */
export function matrixSpecText(replicates = scoreFixture.replicates): string {
  return [
    'target_id = "rubric-fixture"',
    't_unit = "turns"',
    `replicates = ${replicates}`,
    '[axes.prompt_variant]',
    'type = "categorical"',
    'values = ["skeptical", "standard"]',
    '[axes.task]',
    'type = "categorical"',
    'values = ["alpha", "beta", "gamma"]',
    '',
  ].join('\n');
}

/** Distinctive texts put into meta and error fields: none may reach an export or a diff. */
export const SECRETS = ['PROMPT-TEXT-7f3a', 'ANSWER-TEXT-91bc', 'ERROR-TEXT-c0de', 'RUBRIC-NOTE-5e5e'] as const;

function find(values: Readonly<Record<string, unknown>>): ScoreFixtureCondition {
  const c = scoreFixture.conditions.find((x) => x.task === values['task'] && x.prompt_variant === values['prompt_variant']);
  if (c === undefined) throw new RangeError(`no fixture condition for ${JSON.stringify(values)}`);
  return c;
}

/** The pass mark the fixture's outcomes use: a score of at least 0.75 passes. */
export const PASS_MARK = 0.75;

/** Writes the fixture's run `which` into the store (a crash: score, outcome and meta flag null, an error). */
export async function buildScoreRun(store: string, which: 'before' | 'after', opts: { salt?: string; now?: Date; withHard?: boolean } = {}): Promise<void> {
  const spec = matrixSpecText();
  const at = (values: Readonly<Record<string, unknown>>, r: number): { score: number | null; hard: boolean | null } => {
    const c = find(values);
    return { score: (which === 'before' ? c.before : c.after)[r] ?? null, hard: (which === 'before' ? c.hard_before : c.hard_after)[r] ?? null };
  };
  await buildRun(store, {
    specText: spec,
    ...(opts.salt !== undefined ? { salt: opts.salt } : {}),
    ...(opts.now !== undefined ? { now: opts.now } : {}),
    outcomes: () => 'passed',
    extra: (values, _ci, r) => {
      const { score, hard } = at(values, r);
      if (score === null) return { outcome: null, score: null, error: `${SECRETS[2]}: target crashed`, meta: JSON.stringify({ note: SECRETS[3] }) };
      const meta: Record<string, unknown> = { prompt: SECRETS[0], answer: SECRETS[1], note: SECRETS[3] };
      if (opts.withHard !== false && hard !== null) meta['hard_failure'] = hard;
      return { outcome: score >= PASS_MARK ? 'passed' : 'failed', score, meta: JSON.stringify(meta) };
    },
  });
}
