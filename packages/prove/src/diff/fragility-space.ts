// Fragility's search space (STATS.md, "Fragility"; the proof is fragility()'s TSDoc): the moves (k, a
// condition, a run, a tested event, a direction) in the order searched, and per move the candidates each
// strategy proposes, every one in the single encoding of fragility-tables.ts, each yielded once.
import { changedTables, type Direction, type Extreme, type View } from './fragility-tables.js';
import type { Table } from './tables.js';

/** k episodes of one run (`view`) of condition `ci` changed for event class `ev` in direction `dir`. */
export type Move = {
  readonly k: number;
  readonly ci: number;
  readonly view: View;
  readonly ev: number;
  readonly dir: Direction;
  /** Whether a change of the word needs every test of the condition at once (the scan and the vectors). */
  readonly needsAll: boolean;
};

/**
 * A candidate: a move whose changes involve event class g `xs[g]` times (from it into E, or out of E to
 * it; the rest from or to class 0), with the columns at the extreme `ext`. `wording` says how it is
 * described: `one` (at most one other event, as the partner strategies propose it) or `several`.
 */
export type Candidate = { readonly move: Move; readonly xs: readonly number[]; readonly ext: Extreme; readonly wording: 'one' | 'several' };

/** A test's standing: significant (alone enough for the word), and within the threshold. */
export type Standing = { readonly sig: boolean; readonly ok: boolean };

/** What the search space is drawn from. */
export type Space = {
  /** Per condition, its views from run A and from run B. */
  readonly views: readonly (readonly [View, View])[];
  /** e, the number of tested events. */
  readonly events: number;
  /** Whether the word is "significant change" (so the word changes when no test is significant). */
  readonly significant: boolean;
  /** Whether no change inside condition ci can change the word (a test elsewhere keeps it significant). */
  readonly fixedBeyond: (ci: number) => boolean;
  /** Whether every test held back ("inconclusive") is in condition ci. */
  readonly heldOnlyIn: (ci: number) => boolean;
  /**
   * The limit models (`bothWays` unset, set) a change inside condition ci can leave the family in: the
   * one it stands in first, and the other when a change there can flip it.
   */
  readonly models: (ci: number) => readonly boolean[];
  /** The standing of test g of condition ci with this table (undefined: as it stands), its limit read with the model `bw`. */
  readonly standing: (ci: number, g: number, t: Table | undefined, bw: boolean) => Standing;
};

const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** The moves in the order searched: k, then condition, event, run (A, B) and direction (out, in). */
export function* moves(s: Space): Generator<Move> {
  const maxK = Math.max(0, ...s.views.flat().map((v) => v.n));
  for (let k = 1; k <= maxK; k++) {
    for (let ci = 0; ci < s.views.length; ci++) {
      if (s.fixedBeyond(ci)) continue;
      for (let ev = 1; ev <= s.events; ev++) {
        for (const view of s.views[ci] as readonly [View, View]) {
          for (const dir of ['out', 'in'] as const) {
            const rowE = view.row[ev] as number;
            if ((dir === 'out' ? rowE : view.n - rowE) < k) continue;
            yield { k, ci, view, ev, dir, needsAll: s.significant || (s.heldOnlyIn(ci) && view.run === 'A') };
          }
        }
      }
    }
  }
}

/** The vector of a partner f with x changes (all zero when f is null). */
function partnerVector(m: Move, f: number | null, x: number): number[] {
  const xs = new Array<number>(m.view.row.length).fill(0);
  if (f !== null) xs[f] = x;
  return xs;
}

/** x's range for partner f: into E at most f's row and at least what class 0 cannot give; 0 without a partner. */
function partnerRange(m: Move, f: number | null): [number, number] {
  if (f === null) return [0, 0];
  const { k, view: v } = m;
  return m.dir === 'in' ? [Math.max(0, k - (v.row[0] as number)), Math.min(k, v.row[f] as number)] : [0, k];
}

/**
 * One other event F (or none): x at the ends of its range and, into E on paired runs, where E's
 * concordant pairs turn (x = cross[F][E] and k - cross[0][E], clamped), each at both extremes.
 */
export function* partnerEnds(m: Move, f: number | null): Generator<Candidate> {
  const [lo, hi] = partnerRange(m, f);
  if (lo > hi) return;
  const clamp = (x: number): number => Math.min(hi, Math.max(lo, x));
  const xs = new Set<number>([lo, hi]);
  if (f !== null && m.dir === 'in' && m.view.paired) {
    xs.add(clamp((m.view.cross[f] as number[])[m.ev] as number));
    xs.add(clamp(m.k - ((m.view.cross[0] as number[])[m.ev] as number)));
  }
  for (const x of xs) for (const ext of ['min', 'max'] as const) yield { move: m, xs: partnerVector(m, f, x), ext, wording: 'one' };
}

/** Two tested events, when every test of the condition must move at once: every x of F's range, at one extreme. */
export function* partnerScan(m: Move, f: number | null, s: Space): Generator<Candidate> {
  if (f === null || s.events !== 2 || !m.needsAll) return;
  const [lo, hi] = partnerRange(m, f);
  for (const x of range(lo, hi)) yield { move: m, xs: partnerVector(m, f, x), ext: s.significant ? 'max' : 'min', wording: 'one' };
}

/**
 * Three or more events, into E: the k changes drawn from every other class at once, pairs whose other
 * outcome is E first (E's fewest discordant pairs: its smallest p), which also reaches every k up to the
 * whole pool (E's limit); at both extremes.
 */
export function* pooledInto(m: Move, s: Space): Generator<Candidate> {
  if (s.events < 3 || m.dir !== 'in') return;
  const v = m.view;
  const order = range(0, v.row.length - 1).filter((g) => g !== m.ev);
  const used = new Array<number>(v.row.length).fill(0);
  let left = m.k;
  for (const g of order) {
    used[g] = Math.min(left, v.paired ? ((v.cross[g] as number[])[m.ev] as number) : 0);
    left -= used[g] as number;
  }
  for (const g of order) {
    const t = Math.min(left, (v.row[g] as number) - (used[g] as number));
    used[g] = (used[g] as number) + t;
    left -= t;
  }
  if (left !== 0) return;
  const xs = used.map((u, g) => (g === 0 ? 0 : u));
  for (const ext of ['min', 'max'] as const) yield { move: m, xs, ext, wording: 'several' };
}

/**
 * Three or more events, when every test must move at once: a vector whose every entry alone keeps its
 * event not significant (or within the threshold), found over the reachable sums ({@link pickVector}).
 */
export function* allAtOnce(m: Move, s: Space): Generator<Candidate> {
  if (s.events < 3 || !m.needsAll) return;
  const { k, ci, view: v, ev, dir } = m;
  const caps = v.row.map((r, g) => (g === 0 || g === ev ? 0 : dir === 'in' ? Math.min(k, r) : k));
  const ext: Extreme = s.significant ? 'max' : 'min';
  // Significance does not read the limits: one model will do.
  for (const bw of s.significant ? s.models(ci).slice(0, 1) : s.models(ci)) {
    // Each other event's own test after x of the changes involve it (at the chosen extreme), read with the
    // limit model bw (a vector for each model the change can leave the family in).
    const alone = (g: number, x: number): Standing => {
      const xs = new Array<number>(v.row.length).fill(0);
      xs[g] = x;
      return s.standing(ci, g, changedTables(v, ev, dir, Math.max(k, x), xs, ext)[g], bw);
    };
    const good = (g: number, x: number): boolean => (caps[g] === 0 ? x === 0 : s.significant ? !alone(g, x).sig : alone(g, x).ok);
    const xs = pickVector(caps, good, dir === 'in' ? Math.max(0, k - (v.row[0] as number)) : 0, k);
    if (xs !== null) yield { move: m, xs, ext, wording: 'several' };
  }
}

/** Every strategy's candidates for one move, in the order searched. */
function* strategies(m: Move, s: Space): Generator<Candidate> {
  const partners = s.events === 1 ? [null] : range(1, s.events).filter((g) => g !== m.ev);
  for (const f of partners) {
    yield* partnerEnds(m, f);
    yield* partnerScan(m, f, s);
  }
  yield* pooledInto(m, s);
  yield* allAtOnce(m, s);
}

/**
 * The search space: every move's candidates, each (changes per class, extreme) once per move — a later
 * strategy proposing a candidate already tried changes nothing, so it is left out.
 */
export function* searchSpace(s: Space): Generator<Candidate> {
  for (const m of moves(s)) {
    const seen = new Set<string>();
    for (const c of strategies(m, s)) {
      const key = `${c.ext}:${c.xs.join(',')}`;
      if (seen.has(key)) continue;
      seen.add(key);
      yield c;
    }
  }
}

/** Per class, the x in 0..cap (at most hi) that pass `good`, as runs of consecutive values. */
function goodIntervals(cap: number, good: (x: number) => boolean): [number, number][] {
  const iv: [number, number][] = [];
  for (let x = 0; x <= cap; x++) {
    if (!good(x)) continue;
    const last = iv[iv.length - 1];
    if (last !== undefined && last[1] === x - 1) last[1] = x;
    else iv.push([x, x]);
  }
  return iv;
}

/** The sums in 0..hi reachable by adding one value of `iv` to a sum reachable before (a difference array). */
function reachAfter(reach: Uint8Array, iv: readonly [number, number][], hi: number): Uint8Array {
  const diff = new Int32Array(hi + 2);
  for (let s = 0; s <= hi; s++) {
    if (!reach[s]) continue;
    for (const [a, b] of iv) {
      if (s + a > hi) break;
      diff[s + a] = (diff[s + a] as number) + 1;
      diff[Math.min(hi, s + b) + 1] = (diff[Math.min(hi, s + b) + 1] as number) - 1;
    }
  }
  const next = new Uint8Array(hi + 1);
  let run = 0;
  for (let t = 0; t <= hi; t++) {
    run += diff[t] as number;
    next[t] = run > 0 ? 1 : 0;
  }
  return next;
}

/**
 * Per other event, the values x (0..cap) whose count after the change passes `good`, as intervals; then
 * a vector with one value per event whose sum lies in [lo, hi], or null when there is none (sums tracked
 * as reachable sets, an interval at a time).
 */
export function pickVector(caps: readonly number[], good: (g: number, x: number) => boolean, lo: number, hi: number): number[] | null {
  const stages: Uint8Array[] = [];
  const intervals: [number, number][][] = [];
  let reach: Uint8Array = new Uint8Array(hi + 1);
  reach[0] = 1;
  caps.forEach((cap, g) => {
    intervals.push(goodIntervals(Math.min(cap, hi), (x) => good(g, x)));
    stages.push(reach);
    reach = reachAfter(reach, intervals[g] as [number, number][], hi);
  });
  let target = range(lo, hi).find((t) => reach[t]) ?? -1;
  if (target < 0) return null;
  const xs = new Array<number>(caps.length).fill(0);
  // Back from the last class: the smallest good value of each class that leaves a sum reachable before it.
  for (let g = caps.length - 1; g >= 0; g--) {
    const prev = stages[g] as Uint8Array;
    const x = (intervals[g] as [number, number][]).flatMap(([a, b]) => range(a, b)).find((x) => target - x >= 0 && prev[target - x]);
    if (x === undefined) return null;
    xs[g] = x;
    target -= x;
  }
  return xs;
}
