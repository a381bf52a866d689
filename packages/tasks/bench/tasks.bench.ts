// Episodes per second of depth:d3 reference episodes, with and without the prompt token count, as
// ratios against the baseline measured in the same run.
//   npm run bench -- tasks     (node --conditions=source --import tsx packages/tasks/bench/tasks.bench.ts)
import { createTarget } from '../src/target.js';
import {
  countTokens,
  generate,
  maxTurns,
  parseRegistration,
  promptTokens,
  referencePolicy,
  renderContext,
  runEpisode,
  validatePreregistration,
  type ArmSpec,
} from '../src/index.js';

const D3: ArmSpec = { knob: 'depth', level: 3, controlHistory: null, strictness: 'strict', split: 'eval', generatorVersion: '0' };
const budget = maxTurns(D3, 4);
const N = Number(process.env['BENCH_EPISODES'] ?? 20_000);

async function time(label: string, n: number, body: (seed: number) => Promise<unknown> | unknown): Promise<number> {
  for (let s = 0; s < 500; s++) await body(1_000_000 + s); // warm-up, on other seeds
  const t0 = performance.now();
  for (let s = 0; s < n; s++) await body(s);
  const seconds = (performance.now() - t0) / 1000;
  const rate = n / seconds;
  console.log(`${label.padEnd(52)} ${n} episodes in ${seconds.toFixed(2)} s: ${Math.round(rate).toLocaleString('en-US')} episodes/s`);
  return rate;
}

const generateOnly = await time('generate only', N, (s) => generate(D3, s));
const base = await time('generate + episode (baseline, no token count)', N, (s) => runEpisode(generate(D3, s), referencePolicy, { maxTurns: budget }));
const memo = await time('... + promptTokens (memoized segments)', N, async (s) => {
  const task = generate(D3, s);
  await runEpisode(task, referencePolicy, { maxTurns: budget });
  return promptTokens(task);
});
const naive = await time('... + countTokens(renderContext) (whole text)', Math.min(N, 5_000), async (s) => {
  const task = generate(D3, s);
  await runEpisode(task, referencePolicy, { maxTurns: budget });
  return countTokens(renderContext(task.tools, task.messages));
});
const registration = validatePreregistration(
  parseRegistration('knob = "depth"\nstrictness = "strict"\nsplit = "eval"\ngenerator_version = "0"\nslack = 4\nhorizon = 8\narms = ["depth:d1", "depth:d3", "depth:d1+h3"]\n'),
);
const target = createTarget({ arm: D3, registration, registrationSha256: '0'.repeat(64), policy: referencePolicy });
const viaTarget = await time('target(cfg): pin check + episode + meta', N, (s) => target({ seed: s, replicate_index: 0, slack: 4, horizon: 8 }));

console.log('\nratios against the baseline (generate + episode, no token count):');
console.log(`  generate only                    ${(generateOnly / base).toFixed(2)}x`);
console.log(`  with memoized promptTokens       ${(memo / base).toFixed(2)}x  (cost of the count: ${((base / memo - 1) * 100).toFixed(0)}% more time)`);
console.log(`  with whole-text countTokens      ${(naive / base).toFixed(2)}x`);
console.log(`  full target call                 ${(viaTarget / base).toFixed(2)}x`);
console.log(`  100,000 depth-3 target episodes: about ${(100_000 / viaTarget).toFixed(1)} s`);
