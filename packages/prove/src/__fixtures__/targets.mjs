// Small fixture targets for prove's tests (plain JS so the built CLI and worker threads import them as is).

/** Passes on even seeds, fails on odd ones; t = seed mod 7; meta repeats the config. */
export function coin(cfg) {
  return { outcome: cfg.seed % 2 === 0 ? 'passed' : 'failed', t: cfg.seed % 7, meta: { cfg, note: 'coin' } };
}

/** Like coin, but throws on seeds divisible by 3. */
export function flaky(cfg) {
  if (cfg.seed % 3 === 0) throw new Error(`boom on seed ${cfg.seed}`);
  return coin(cfg);
}

/** Always passes; carries a pin record as poisson-tasks' targets do. */
export async function pinned(cfg) {
  return { outcome: 'passed', t: 2, score: 1, meta: { pin: { registration_sha256: 'f'.repeat(64) }, arm_id: 'depth:d1', seed: cfg.seed } };
}

/** Async; never settles on seeds divisible by 4 (for timeouts), else passes after a tick. */
export function stall(cfg) {
  if (cfg.seed % 4 === 0) return new Promise(() => {});
  return new Promise((resolve) => setImmediate(() => resolve({ outcome: 'passed', t: 1 })));
}

/** Synchronous; spins forever on seeds divisible by 5 (only a worker thread can be stopped). */
export function spin(cfg) {
  if (cfg.seed % 5 === 0) for (;;);
  return { outcome: 'passed', t: 1 };
}

/** A cheap CPU-bound target: a few thousand steps of an xorshift walk (a stand-in for a reference policy). */
export function cpu(cfg) {
  let x = cfg.seed | 1;
  let hits = 0;
  for (let i = 0; i < 2000; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    if ((x & 7) === 0) hits++;
  }
  return { outcome: hits % 2 === 0 ? 'passed' : 'failed', t: hits % 9, meta: { hits } };
}

/** Async, waits a macrotask per episode (so a run takes a while and can be killed mid-part). */
export function tick(cfg) {
  return new Promise((resolve) => setTimeout(() => resolve({ outcome: cfg.seed % 2 === 0 ? 'passed' : 'failed', t: 1, meta: { seed: cfg.seed } }), 1));
}

/** Returns something that is not a TargetResult. */
export function wrong() {
  return { outcome: 3 };
}

/** Not a function. */
export const notATarget = 42;

export default {
  /** Reached through the default export. */
  fromDefault(cfg) {
    return { outcome: 'passed', t: 0, meta: { via: 'default', seed: cfg.seed } };
  },
};
