// Shard 1 of the benchmarks' runs at a small size: see benchmarks.ts.
import { describe, expect, it } from 'vitest';
import { benchmarkShard, benchmarks, SHARDS, shardOf, SMALL } from './benchmarks.js';

benchmarkShard(1);

describe('npm run bench', () => {
  it('has small settings here for every benchmark (a new one is added to SMALL in benchmarks.ts)', () => {
    expect(benchmarks()).toEqual(Object.keys(SMALL).sort());
  });

  it('runs every benchmark in exactly one shard', () => {
    const all = Array.from({ length: SHARDS }, (_, i) => shardOf(i + 1)).flat();
    expect(all.sort()).toEqual(Object.keys(SMALL).sort());
  });
});
