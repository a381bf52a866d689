// A process that encodes a part on the encoder thread, then a part one of whose values the structured
// clone refuses (an object with a method in `meta`, which a custom backend could yield), then a good part
// again. Prints the outcome of each as one JSON line and must then exit by itself: the bad part must
// neither keep the thread referenced nor turn it off for the rest of the process (part-encoder.test.ts).
import type { EpisodeRow } from '../store/episode-row.js';
import { partColumnData } from '../store/parquet.js';
import { encodePart, THREAD_MIN_ROWS } from '../store/part-encoder.js';

const AXES = { slack: 'continuous' } as const;
const rows = (n: number, meta: unknown = '{}'): EpisodeRow[] =>
  Array.from({ length: n }, (_, r) => ({ run_id: '20261205T000000Z-abcd', condition: 'slack 1', slack: 1, replicate_index: r, seed: r, outcome: 'passed', t: 1, score: null, error: null, meta: meta as string, duration_ms: 1 }));

const out: string[] = [];
out.push((await encodePart(partColumnData(AXES, rows(THREAD_MIN_ROWS)), THREAD_MIN_ROWS)).where);
try {
  const bad = rows(2, { toJSON() {}, f() {} });
  await encodePart(partColumnData(AXES, bad), 2);
  out.push('no error');
} catch (err) {
  out.push(`error: ${(err as Error).message}`);
}
out.push((await encodePart(partColumnData(AXES, rows(40)), 40)).where);
console.log(JSON.stringify(out));
