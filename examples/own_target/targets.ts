/**
 * Your agent as poisson-prove targets: one async function per prompt. A target gets the episode's config
 * (`seed`, `replicate_index` and the sweep's axis values) and returns `{ outcome, t, meta }`.
 *
 *     npx poisson-prove sweep examples/own_target/sweep.toml --target examples/own_target/targets.ts:baseline ...
 */
import type { TargetConfig } from 'poisson-prove';
import { agent, makeTask, PROMPTS } from './agent.js';

async function episode(cfg: TargetConfig, systemPrompt: string) {
  // The axis values arrive as they are in the spec: check the one this target needs.
  const difficulty = cfg['difficulty'];
  if (difficulty !== 'easy' && difficulty !== 'hard') throw new Error(`difficulty must be "easy" or "hard", got ${JSON.stringify(difficulty)}`);
  const task = makeTask(cfg.seed, difficulty);
  const { answer, steps } = await agent(task, systemPrompt, cfg.seed);
  return {
    outcome: answer === task.a + task.b ? 'passed' : 'failed',
    t: steps, // the spec's t_unit: steps the agent took
    meta: { question: `${task.a} + ${task.b}`, answer },
  };
}

/** The current prompt. */
export const baseline = (cfg: TargetConfig) => episode(cfg, PROMPTS.terse);
/** The prompt under test. */
export const candidate = (cfg: TargetConfig) => episode(cfg, PROMPTS.stepwise);
