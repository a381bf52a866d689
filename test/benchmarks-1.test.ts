// Shard 1 of the benchmarks' runs at a small size: see benchmarks.ts.
import { describe, expect, it } from 'vitest';
import { benchmarkShard, benchmarks, SHARDS, shardOf, SMALL } from './benchmarks.js';

benchmarkShard(1);

describe('npm run bench', () => {
  it('has small settings here for every benchmark (a new one is added to SMALL in benchmarks.ts)', () => {
    expect(benchmarks()).toEqual(Object.keys(SMALL).sort());
  });

  // The closing review: nothing tied SHARDS to the files, so a sixth shard (or a file calling another's
  // K) would have run nobody's benchmarks, unseen.
  it('has one file per shard, benchmarks-K.test.ts calling benchmarkShard(K), and no more', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const here = new URL('.', import.meta.url);
    const files = readdirSync(here).filter((f) => /^benchmarks-\d+\.test\.ts$/.test(f)).sort();
    expect(files).toEqual(Array.from({ length: SHARDS }, (_, i) => `benchmarks-${i + 1}.test.ts`).sort());
    for (let k = 1; k <= SHARDS; k++) {
      const calls = [...readFileSync(new URL(`benchmarks-${k}.test.ts`, here), 'utf8').matchAll(/^benchmarkShard\((\d+)\);$/gm)].map((m) => Number(m[1]));
      expect(calls, `benchmarks-${k}.test.ts`).toEqual([k]);
    }
  });

  it('runs every benchmark file in exactly one shard, the shards within one benchmark\'s seconds of each other', () => {
    const shards = Array.from({ length: SHARDS }, (_, i) => shardOf(i + 1));
    expect(shards.flat().sort()).toEqual(benchmarks());
    const seconds = shards.map((names) => names.reduce((t, n) => t + (SMALL[n] as { seconds: number }).seconds, 0));
    const largest = Math.max(...Object.values(SMALL).map((b) => b.seconds));
    expect(Math.max(...seconds) - Math.min(...seconds)).toBeLessThanOrEqual(largest);
  });
});
