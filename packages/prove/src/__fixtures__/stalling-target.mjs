// A target for the test of a worker that loses its job's lock (test/bullmq-stall.test.ts): counts its
// calls in globalThis.__poissonStallCalls, and at replicate 1 awaits globalThis.__poissonStall when the
// test set it (the test takes the job's lock away there, as a worker paused past its lock loses it).
export async function stalling(cfg) {
  globalThis.__poissonStallCalls = (globalThis.__poissonStallCalls ?? 0) + 1;
  const stall = globalThis.__poissonStall;
  if (cfg.replicate_index === 1 && typeof stall === 'function') {
    globalThis.__poissonStall = undefined;
    await stall();
  }
  return { outcome: 'passed', t: 1 };
}

// The same with a usage() hook: every call bills 10 tokens (test/bullmq-stall.test.ts: the usage of the
// episodes a worker ran before it lost the job's lock).
export const stallingBilled = Object.assign((cfg) => stalling(cfg), {
  usage() {
    const calls = globalThis.__poissonStallCalls ?? 0;
    return { calls, cache_hits: 0, prompt_tokens: calls * 6, completion_tokens: calls * 4, billed_tokens: calls * 10 };
  },
});
