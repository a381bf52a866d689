// Memory of a sweep over 10^6 episodes against 10^5: the live heap (after a full GC at every 1/20 of the
// run) and the peak RSS. The engine flushes a parquet part every 10,000 rows, so the live heap should not
// grow with the episodes. Run: npm run bench -- prove/bench/memory   (BENCH_MEMORY_EPISODES for the 10^6)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sweep } from '../src/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

// meta like poisson-tasks' reference target's (~420 bytes of JSON per episode), different per seed.
const META = {
  arm_id: 'depth:d3',
  knob: 'depth',
  level: 3,
  control_history: null,
  split: 'eval',
  strictness: 'strict',
  pin: { generator_version: '0', generator_hash: 'be55445411c3b1e4e76dad561ca22f384ac0f56d1b616085b19fa57d9601f83a', registration_sha256: '642874648e05868eab18a6de12e2412ec9dd54dc045df29622973f3248411dc6' },
  sampled_calls: 3,
};

async function measure(episodes: number): Promise<{ live: number; rss: number; ms: number }> {
  const store = mkdtempSync(join(tmpdir(), 'prove-mem-bench-'));
  const spec = `target_id = "mem"\nt_unit = "turns"\nreplicates = ${episodes}\n[axes.slack]\ntype = "continuous"\nvalues = [4]\n`;
  gc();
  let live = 0;
  let rss = 0;
  let next = 0;
  const t0 = performance.now();
  try {
    await sweep({
      spec,
      target: (cfg) => ({ outcome: cfg.seed % 11 === 0 ? 'failed' : 'passed', t: 2, meta: { ...META, scenario_id: cfg.seed.toString(16), task_id: cfg.replicate_index } }),
      store,
      salt: 'mem',
      maxMde: 0.99,
      onProgress: (p) => {
        rss = Math.max(rss, process.memoryUsage.rss());
        if (p.done >= next) {
          next += episodes / 20;
          gc();
          live = Math.max(live, process.memoryUsage().heapUsed);
        }
      },
    });
  } finally {
    rmSync(store, { recursive: true, force: true });
  }
  return { live, rss, ms: performance.now() - t0 };
}

const MEM = Number(process.env['BENCH_MEMORY_EPISODES'] ?? 1_000_000);
const mb = (b: number): string => `${(b / 2 ** 20).toFixed(0)} MB`;
await measure(MEM / 100); // warm up
const small = await measure(MEM / 10);
const large = await measure(MEM);
for (const [n, m] of [
  [MEM / 10, small],
  [MEM, large],
] as const) {
  console.log(`${n.toLocaleString('en-US').padStart(9)} episodes  live heap ${mb(m.live)}, peak rss ${mb(m.rss)}  (${((n / m.ms) * 1000).toFixed(0)} episodes/s, trivial target)`);
}
console.log(`10x the episodes: live heap x${(large.live / small.live).toFixed(2)}, peak rss x${(large.rss / small.rss).toFixed(2)}`);
