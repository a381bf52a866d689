/**
 * Your agent as poisson-prove targets: one async function per prompt. A target gets the episode's config
 * (`seed`, `replicate_index` and the sweep's axis values) and returns `{ outcome, t, meta }`.
 *
 *     npx poisson-prove sweep examples/own_target/sweep.toml --target examples/own_target/targets.ts:baseline ...
 */
import { agent, makeTask, PROMPTS, type Difficulty } from './agent.js';

type Config = { readonly seed: number; readonly replicate_index: number; readonly difficulty: Difficulty };

async function episode(cfg: Config, systemPrompt: string) {
  const task = makeTask(cfg.seed, cfg.difficulty);
  const { answer, steps } = await agent(task, systemPrompt, cfg.seed);
  return {
    outcome: answer === task.a + task.b ? 'passed' : 'failed',
    t: steps, // the spec's t_unit: steps the agent took
    meta: { question: `${task.a} + ${task.b}`, answer },
  };
}

/** The current prompt. */
export const baseline = (cfg: Config) => episode(cfg, PROMPTS.terse);
/** The prompt under test. */
export const candidate = (cfg: Config) => episode(cfg, PROMPTS.stepwise);
