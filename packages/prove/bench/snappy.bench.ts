// The snappy decoder of the flat read (store/flat-columns.ts, snappyInto): hysnappy's WebAssembly
// decoder against hyparquet's JavaScript one (the one hyparquet reads with), on every page the diff's
// read decompresses of one run of the diff benchmark's shape (100 conditions, meta ~200 bytes an
// episode; BENCH_SNAPPY_EPISODES, default 1,000,000), alternating, 7 rounds; both outputs checked equal.
// Run: npm run bench -- prove/bench/snappy
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { snappyUncompress } from 'hyparquet';
import { snappyUncompressor } from 'hysnappy';
import { readRunIndex } from '../src/diff/read-run.js';
import { outcomeCodes } from '../src/diff/run-index.js';
import { snappyInto } from '../src/store/flat-columns.js';
import { FLAT_LIB } from '../src/store/parquet.js';
import { resolveRun } from '../src/store/resolve-run.js';
import { buildDiffStore } from './diff-data.js';

const EPISODES = Number(process.env['BENCH_SNAPPY_EPISODES'] ?? 1_000_000);
const dir = mkdtempSync(join(tmpdir(), 'prove-snappy-bench-'));
await buildDiffStore(dir, EPISODES);
// The pages as the read meets them: the flat decoder's snappy call, recorded.
const pages: { input: Uint8Array; size: number }[] = [];
const lib = FLAT_LIB as { snappyUncompress: (input: Uint8Array, output: Uint8Array) => void };
const decode = lib.snappyUncompress;
lib.snappyUncompress = (input, output) => {
  pages.push({ input: input.slice(), size: output.length });
  decode(input, output);
};
await readRunIndex(dir, await resolveRun(dir, '#1'), 'after', outcomeCodes(), { thread: false });
lib.snappyUncompress = decode;
rmSync(dir, { recursive: true, force: true });
const inBytes = pages.reduce((s, p) => s + p.input.length, 0);
const outBytes = pages.reduce((s, p) => s + p.size, 0);
console.log(`${pages.length} pages of one run of ${EPISODES.toLocaleString('en-US')} episodes: ${(inBytes / 1e6).toFixed(1)} MB compressed, ${(outBytes / 1e6).toFixed(1)} MB decompressed`);

const a = pages.map((p) => new Uint8Array(p.size));
const b = pages.map((p) => new Uint8Array(p.size));
const un = snappyUncompressor();
const hy = (): void => pages.forEach((p, i) => snappyInto(un, p.input, a[i] as Uint8Array));
const js = (): void => pages.forEach((p, i) => snappyUncompress(p.input, b[i] as Uint8Array));
hy();
js();
pages.forEach((_, i) => {
  if (!Buffer.from(a[i] as Uint8Array).equals(Buffer.from(b[i] as Uint8Array))) throw new Error(`page ${i}: the decoders disagree`);
});
const time = (fn: () => void): number => {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
};
const hys: number[] = [];
const jss: number[] = [];
for (let r = 0; r < 7; r++) {
  jss.push(time(js));
  hys.push(time(hy));
}
const mid = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] as number;
console.log(`hyparquet's snappyUncompress (baseline): median ${mid(jss).toFixed(1)} ms`);
console.log(`hysnappy via snappyInto:                median ${mid(hys).toFixed(1)} ms  (${(mid(hys) / mid(jss)).toFixed(2)}x of the baseline's time)`);
