// Shard 2 of the benchmarks' runs at a small size: see benchmarks.ts.
import { benchmarkShard } from './benchmarks.js';

benchmarkShard(2);
