// The runs of docs/diff.md: poisson-tasks' depth:d1 relay task played by the noisy policy, over
// slack x strictness. `before` corrupts an episode with probability 0.45 in every condition; `after` is
// the same except that in `slack 2 · strictness strict` the probability drops to 0.15. The noisy policy
// draws one number per episode seed, and an episode fails when that number is below p, so on a shared
// seed the seeds that fail at 0.15 also fail at 0.45: only seeds that failed before can pass after (the
// limit's model of a change).
//
//   poisson-prove --store store sweep examples/diff_demo/sweep.toml \
//     --target examples/diff_demo/targets.ts:before --max-mde 0.35 --salt demo-salt --yes
import { generate, maxTurns, noisyPolicy, parseArmId, runEpisode, type Strictness } from 'poisson-tasks';

type Config = { seed: number; slack: number | string; strictness: string };

function noisyTarget(p: (cfg: Config) => number) {
  return async (cfg: Config) => {
    const arm = parseArmId('depth:d1', { strictness: cfg.strictness as Strictness, split: 'eval', generatorVersion: '0' });
    const task = generate(arm, cfg.seed);
    const result = await runEpisode(task, noisyPolicy({ p: p(cfg) }), { maxTurns: maxTurns(arm, Number(cfg.slack)) });
    return { outcome: result.outcome, t: result.t, meta: { arm_id: 'depth:d1' } };
  };
}

/** Fails about 45% of episodes in every condition. */
export const before = noisyTarget(() => 0.45);

/** As `before`, except 15% in slack 2 · strictness strict. */
export const after = noisyTarget((cfg) => (Number(cfg.slack) === 2 && cfg.strictness === 'strict' ? 0.15 : 0.45));

/** As `after`, and worse in slack 8 · strictness lenient (0.7): docs/view.md's diff with a change each way. */
export const mixed = noisyTarget((cfg) =>
  Number(cfg.slack) === 2 && cfg.strictness === 'strict' ? 0.15 : Number(cfg.slack) === 8 && cfg.strictness === 'lenient' ? 0.7 : 0.45,
);
