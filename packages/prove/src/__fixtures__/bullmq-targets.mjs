// Fixture targets for the bullmq backend's tests and bench (plain JS, so the built CLI's workers import
// them as they are). Deterministic in the config; fault injection through the worker's environment:
//   POISSON_FIXTURE_MARKER=FILE, POISSON_FIXTURE_MARK_AFTER=N: after N episodes in this process, write FILE;
//   POISSON_FIXTURE_HOLD=forever | FILE: then hold that episode forever, or until FILE exists;
//   POISSON_FIXTURE_CALLS=FILE: billedWalk appends a line `<condition slack> <replicate>` to FILE for every
//   episode it bills (the calls a provider would have been paid for, across worker processes).
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';

let episodes = 0;
let marked = false;

async function faults() {
  const marker = process.env.POISSON_FIXTURE_MARKER;
  if (!marker || marked) return;
  episodes++;
  if (episodes < Number(process.env.POISSON_FIXTURE_MARK_AFTER ?? '1')) return;
  marked = true;
  writeFileSync(marker, `${process.pid}\n`);
  const hold = process.env.POISSON_FIXTURE_HOLD;
  if (hold === 'forever') await new Promise(() => {});
  else if (hold) while (!existsSync(hold)) await new Promise((r) => setTimeout(r, 20));
}

/** An xorshift walk from the seed, scaled by the condition: outcome, t and meta follow from the config alone. */
export async function walk(cfg) {
  await faults();
  let x = (cfg.seed ^ Math.round(Number(cfg.slack) * 7919)) | 1;
  let steps = 0;
  for (let i = 0; i < 500; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    if ((x & 15) === 0) steps++;
  }
  const outcome = steps % 3 === 0 ? 'passed' : steps % 3 === 1 ? 'failed' : 'timeout';
  return { outcome, t: steps % 11, score: (steps % 5) / 4, meta: { cfg, steps } };
}

/** walk that bills 10 tokens an episode (6 prompt + 4 completion) through usage(), counted from its configure. */
let billedCalls = 0;
export const billedWalk = Object.assign(async (cfg) => {
  const r = await walk(cfg);
  billedCalls++;
  if (process.env.POISSON_FIXTURE_CALLS) appendFileSync(process.env.POISSON_FIXTURE_CALLS, `${cfg.slack} ${cfg.replicate_index}\n`);
  return r;
}, {
  configure() {
    billedCalls = 0;
  },
  usage() {
    return { calls: billedCalls, cache_hits: 0, prompt_tokens: billedCalls * 6, completion_tokens: billedCalls * 4, billed_tokens: billedCalls * 10 };
  },
});

/** {@link wait50} billing 10 tokens an episode through usage() (a model call that takes its time). */
let waitedCalls = 0;
export const billedWait50 = Object.assign(async (cfg) => {
  const r = await wait50(cfg);
  waitedCalls++;
  return r;
}, {
  configure() {
    waitedCalls = 0;
  },
  usage() {
    return { calls: waitedCalls, cache_hits: 0, prompt_tokens: waitedCalls * 6, completion_tokens: waitedCalls * 4, billed_tokens: waitedCalls * 10 };
  },
});

/** Waits 50 ms, then passes on even seeds (a stand-in for a model call). */
export async function wait50(cfg) {
  await new Promise((r) => setTimeout(r, 50));
  return { outcome: cfg.seed % 2 === 0 ? 'passed' : 'failed', t: 1, meta: { seed: cfg.seed } };
}

/** Imports fine on the coordinator; on a worker whose POISSON_FIXTURE_BROKEN=1 the module cannot be used. */
if (process.env.POISSON_FIXTURE_BROKEN === '1') throw new Error('this module cannot load on this machine (POISSON_FIXTURE_BROKEN=1)');
