// Episodes per second of depth:d3 reference episodes, with and without the prompt token count, as
// ratios against the baseline measured in the same run.
//   npm run bench -- tasks     (node --conditions=poisson-source --import tsx packages/tasks/bench/tasks.bench.ts)
import { createTarget } from '../src/target.js';
import { D3 } from '../src/__fixtures__/arms.js';
import { SEED_REGISTRATION } from '../src/__fixtures__/registration.js';
import {
  countTokens,
  createEnvironment,
  type Environment,
  generate,
  generatorHash,
  maxTurns,
  parseRegistration,
  promptTokens,
  referencePolicy,
  renderContext,
  runEpisode,
  validatePreregistration,
} from '../src/index.js';

const budget = maxTurns(D3, 4);
const N = Number(process.env['BENCH_EPISODES'] ?? 20_000);

// The machine is shared, so each variant runs in ROUNDS interleaved rounds and keeps its best round.
const ROUNDS = 3;
type Variant = { label: string; n: number; body: (seed: number) => Promise<unknown> | unknown };

const registration = validatePreregistration(parseRegistration(SEED_REGISTRATION));
const target = createTarget({ arm: D3, registration, registrationSha256: '0'.repeat(64), policy: referencePolicy });
// Every pinned axis, as a sweep over the registration carries them.
const PINNED = { slack: 4, horizon: 8, strictness: 'strict', generator_hash: generatorHash('0') };

/**
 * An environment seen through an object literal with getters, the shape createEnvironment returned before
 * it was a class: each literal survived a minor GC and was moved to the old generation with what it held.
 */
function literal(env: Environment): Environment {
  return {
    task: env.task,
    maxTurns: env.maxTurns,
    messages: env.messages,
    calls: env.calls,
    get t() {
      return env.t;
    },
    get done() {
      return env.done;
    },
    get outcome() {
      return env.outcome;
    },
    get answer() {
      return env.answer;
    },
    step: env.step,
  };
}

/** An episode of the reference policy played step by step (as runEpisode plays it), in `env` or in its literal. */
async function play(seed: number, asLiteral: boolean): Promise<unknown> {
  const task = generate(D3, seed);
  const made = createEnvironment(task, { maxTurns: budget });
  const env = asLiteral ? literal(made) : made;
  while (!env.done) env.step(await referencePolicy.act({ task, tools: task.tools, messages: env.messages, turn: env.t + 1, maxTurns: env.maxTurns, calls: env.calls }));
  return env.outcome;
}

const variants: Variant[] = [
  { label: 'generate only', n: N, body: (s) => generate(D3, s) },
  { label: 'generate + episode (baseline, no token count)', n: N, body: (s) => runEpisode(generate(D3, s), referencePolicy, { maxTurns: budget }) },
  {
    label: '... + promptTokens (memoized segments)',
    n: N,
    body: async (s) => {
      const task = generate(D3, s);
      await runEpisode(task, referencePolicy, { maxTurns: budget });
      return promptTokens(task);
    },
  },
  {
    label: '... + countTokens(renderContext) (whole text)',
    n: Math.ceil(N / 4),
    body: async (s) => {
      const task = generate(D3, s);
      await runEpisode(task, referencePolicy, { maxTurns: budget });
      return countTokens(renderContext(task.tools, task.messages));
    },
  },
  { label: 'target(cfg): pin check + episode + meta', n: N, body: (s) => target({ seed: s, replicate_index: 0, ...PINNED }) },
  { label: 'episode stepped in the environment', n: N, body: (s) => play(s, false) },
  { label: '... in an object literal with getters over it', n: N, body: (s) => play(s, true) },
];

const best = new Map<string, number>();
for (const v of variants) for (let s = 0; s < 500; s++) await v.body(1_000_000 + s); // warm-up, on other seeds
for (let round = 0; round < ROUNDS; round++) {
  for (const v of variants) {
    const t0 = performance.now();
    for (let s = 0; s < v.n; s++) await v.body(s);
    const rate = v.n / ((performance.now() - t0) / 1000);
    best.set(v.label, Math.max(best.get(v.label) ?? 0, rate));
  }
}
for (const v of variants) {
  console.log(`${v.label.padEnd(52)} ${Math.round(best.get(v.label) as number).toLocaleString('en-US').padStart(8)} episodes/s (best of ${ROUNDS} rounds of ${v.n})`);
}
const [generateOnly, base, memo, naive, viaTarget, stepped, viaLiteral] = variants.map((v) => best.get(v.label) as number) as [number, number, number, number, number, number, number];
console.log('\nratios against the baseline (generate + episode, no token count):');
console.log(`  generate only                    ${(generateOnly / base).toFixed(2)}x`);
console.log(`  with memoized promptTokens       ${(memo / base).toFixed(2)}x  (cost of the count: ${((base / memo - 1) * 100).toFixed(0)}% more time)`);
console.log(`  with whole-text countTokens      ${(naive / base).toFixed(2)}x`);
console.log(`  full target call                 ${(viaTarget / base).toFixed(2)}x`);
console.log(`  environment as a literal with getters, against the class: ${(viaLiteral / stepped).toFixed(2)}x`);
console.log(`  100,000 depth-3 target episodes: about ${(100_000 / viaTarget).toFixed(1)} s`);
