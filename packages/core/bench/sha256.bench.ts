// The SHA-256 of the short texts the seeds and the task generator hash (`<salt>:<r>`, 20 to 80
// characters), with `sha256Hex` (node's one-shot crypto.hash where it exists) against the baseline a user
// would write, `createHash('sha256').update(text).digest('hex')`, in the same run; and `seedFor` itself, beside
// the createHash formulation it had before.
//   npm run bench -- core/bench/sha256     (BENCH_N=N texts per round, default 200,000; best of 5 interleaved rounds)
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { seedFor, sha256Hex } from '../src/index.js';

const N = Number(process.env['BENCH_N'] ?? 200_000);
const ROUNDS = 5;
const texts = Array.from({ length: N }, (_, r) => `bench-salt-0123456789abcdef:${r}`);
let sink = 0;
const lines: [string, () => void][] = [
  ['createHash().update().digest(hex) (baseline)', () => { for (const t of texts) sink += createHash('sha256').update(t).digest('hex').charCodeAt(0); }],
  ['sha256Hex', () => { for (const t of texts) sink += sha256Hex(t).charCodeAt(0); }],
  ['seedFor(salt, r)', () => { for (let r = 0; r < N; r++) sink += seedFor('bench-salt-0123456789abcdef', r); }],
  ['seedFor as it was (createHash, digest bytes)', () => { for (let r = 0; r < N; r++) sink += createHash('sha256').update(`bench-salt-0123456789abcdef:${r}`, 'utf8').digest().readUInt32BE(0); }],
];
for (const [, fn] of lines) fn(); // warm-up
const best = new Map<string, number>();
for (let round = 0; round < ROUNDS; round++) {
  for (const [label, fn] of lines) {
    const t0 = performance.now();
    fn();
    const ms = performance.now() - t0;
    best.set(label, Math.min(best.get(label) ?? Infinity, ms));
  }
}
const base = best.get(lines[0]![0]) as number;
console.log(`${N.toLocaleString('en-US')} texts; node ${process.version}; crypto.hash ${typeof (await import('node:crypto') as { hash?: unknown }).hash === 'function' ? 'present' : 'absent'}; best of ${ROUNDS} interleaved rounds; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
for (const [label] of lines) {
  const ms = best.get(label) as number;
  console.log(`${label.padEnd(46)} ${((ms * 1000) / N).toFixed(3)} µs each  ${(base / ms).toFixed(2)}x the baseline's speed`);
}
if (sink === -1) console.log(sink);
