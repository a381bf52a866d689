// Shard 1 of the benchmarks' runs at a small size: see benchmarks.ts.
import { describe, expect, it } from 'vitest';
import { benchmarkShard, benchmarks, SHARDS, shardOf, SMALL } from './benchmarks.js';

benchmarkShard(1);

describe('npm run bench', () => {
  it('has small settings here for every benchmark (a new one is added to SMALL in benchmarks.ts)', () => {
    expect(benchmarks()).toEqual(Object.keys(SMALL).sort());
  });

  it('runs every benchmark file in exactly one shard, the shards within one benchmark\'s seconds of each other', () => {
    const shards = Array.from({ length: SHARDS }, (_, i) => shardOf(i + 1));
    expect(shards.flat().sort()).toEqual(benchmarks());
    const seconds = shards.map((names) => names.reduce((t, n) => t + (SMALL[n] as { seconds: number }).seconds, 0));
    const largest = Math.max(...Object.values(SMALL).map((b) => b.seconds));
    expect(Math.max(...seconds) - Math.min(...seconds)).toBeLessThanOrEqual(largest);
  });
});
