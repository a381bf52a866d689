import { describe, expect, it } from 'vitest';
import { fragilityCases, type FragilityCase } from './__fixtures__/fragility-cases.js';
import { allAtOnce, moves, partnerEnds, partnerScan, pickVector, pooledInto, searchSpace, type Candidate, type Move, type Space } from './fragility-space.js';
import { changedTables, viewsOf, type View } from './fragility-tables.js';

/** The view of run A of one paired condition with this cross table (rows A's classes, columns B's). */
function viewA(cross: number[][]): View {
  return viewsOf({ condition: 'c', kind: 'paired', cross })[0];
}

function spaceOf(views: readonly (readonly [View, View])[], events: number, significant = true): Space {
  return { views, events, significant, fixedBeyond: () => false, heldOnlyIn: () => false, models: () => [false], standing: () => ({ sig: false, ok: true }) };
}

/** A's classes 0, failed, truncated by B's: class 0 = [2, 1, 0], failed = [1, 3, 1], truncated = [0, 2, 1]. */
const THREE = [
  [2, 1, 0],
  [1, 3, 1],
  [0, 2, 1],
];
/** Four classes (0, failed, truncated, error): class 0 [2,1,0,0], failed [1,1,1,0], truncated [0,2,1,0], error [1,0,0,1]. */
const FOUR = [
  [2, 1, 0, 0],
  [1, 1, 1, 0],
  [0, 2, 1, 0],
  [1, 0, 0, 1],
];

const move = (view: View, k: number, ev: number, dir: 'in' | 'out', needsAll = true): Move => ({ k, ci: 0, view, ev, dir, needsAll });
const shown = (cs: Iterable<Candidate>): string[] => [...cs].map((c) => `${c.ext} ${c.xs.join(',')}`);

describe('changedTables (the one encoding of a candidate)', () => {
  // A: 6 failed (4 of them paired with B's failures, 2 with B's passes), 4 passed (1 paired with a B failure).
  const v = viewA([
    [3, 1],
    [2, 4],
  ]);

  it("out of failed, 'min': the two A failures whose B passed are moved (hand-worked: both 4, rise 1, fall 0)", () => {
    expect(changedTables(v, 1, 'out', 2, [0, 0], 'min')[1]).toEqual({ kind: 'paired', both: 4, rise: 1, fall: 0, neither: 5 });
  });

  it("out of failed, 'max': two failures paired with B's failures are moved (hand-worked: both 2, rise 3, fall 2)", () => {
    expect(changedTables(v, 1, 'out', 2, [0, 0], 'max')[1]).toEqual({ kind: 'paired', both: 2, rise: 3, fall: 2, neither: 3 });
  });

  it('into failed from another event: both tables change, the unchanged class stays undefined', () => {
    const w = viewA(THREE);
    // Two truncations made failures, 'min': the two whose B failed first (failed's both 3 -> 5).
    const t = changedTables(w, 1, 'in', 2, [0, 0, 2], 'min');
    expect(t[0]).toBeUndefined();
    expect(t[1]).toEqual({ kind: 'paired', both: 5, rise: 1, fall: 2, neither: 3 });
    // truncated: A's row 3 -> 1, its own pair (A and B truncated) kept: both 1, rise 1 (B's other), fall 0.
    expect(t[2]).toEqual({ kind: 'paired', both: 1, rise: 1, fall: 0, neither: 9 });
  });

  it('unpaired: the moved run\'s count changes by k', () => {
    const [a] = viewsOf({ condition: 'c', kind: 'unpaired', before: [3, 5], after: [6, 2] });
    expect(changedTables(a, 1, 'out', 2, [0, 0], 'min')[1]).toEqual({ kind: 'unpaired', beforeEvents: 3, beforeN: 8, afterEvents: 2, afterN: 8 });
  });
});

describe('the strategies', () => {
  const w = viewA(THREE);

  it('partnerEnds: into E, x at its ends and where E\'s concordant pairs turn (hand-worked: 0, 2, 1), both extremes', () => {
    // k 2 into failed with truncated: x in [max(0, 2 - 3), min(2, 3)] = [0, 2]; cross[2][1] = 2 -> 2; k - cross[0][1] = 1.
    expect(shown(partnerEnds(move(w, 2, 1, 'in'), 2))).toEqual(['min 0,0,0', 'max 0,0,0', 'min 0,0,2', 'max 0,0,2', 'min 0,0,1', 'max 0,0,1']);
    expect(shown(partnerEnds(move(w, 2, 1, 'out'), 2))).toEqual(['min 0,0,0', 'max 0,0,0', 'min 0,0,2', 'max 0,0,2']);
  });

  it('partnerScan: with two events and every test needed, each x of the range at one extreme; else nothing', () => {
    expect(shown(partnerScan(move(w, 2, 1, 'out'), 2, spaceOf([], 2, true)))).toEqual(['max 0,0,0', 'max 0,0,1', 'max 0,0,2']);
    expect(shown(partnerScan(move(w, 2, 1, 'out'), 2, spaceOf([], 2, false)))).toEqual(['min 0,0,0', 'min 0,0,1', 'min 0,0,2']);
    expect(shown(partnerScan(move(w, 2, 1, 'out', false), 2, spaceOf([], 2)))).toEqual([]);
    expect(shown(partnerScan(move(w, 2, 1, 'out'), 2, spaceOf([], 3)))).toEqual([]);
  });

  it('pooledInto: pairs whose other outcome is E first, then the rest in class order (hand-worked)', () => {
    const v = viewA(FOUR);
    const s = spaceOf([], 3);
    // k 3: 1 from class 0 and 2 from truncated, all paired with B's failures.
    expect(shown(pooledInto(move(v, 3, 1, 'in'), s))).toEqual(['min 0,0,2,0', 'max 0,0,2,0']);
    // k 7: those 3, then class 0's other 2, truncated's last 1, error's first 1.
    expect(shown(pooledInto(move(v, 7, 1, 'in'), s))).toEqual(['min 0,0,3,1', 'max 0,0,3,1']);
    // k 9: more than the 8 other outcomes: nothing.
    expect(shown(pooledInto(move(v, 9, 1, 'in'), s))).toEqual([]);
    expect(shown(pooledInto(move(v, 3, 1, 'out'), s))).toEqual([]);
  });

  it('pickVector: one good value per class whose sum is in [lo, hi] (hand-worked: [0, 2, 1])', () => {
    const good = (g: number, x: number): boolean => (g === 0 ? x === 0 : g === 1 ? [0, 2, 3].includes(x) : x === 1);
    // Reachable sums: {0}, then {0, 2, 3}, then {1, 3, 4}; the first in [3, 4] is 3 = 2 + 1.
    expect(pickVector([0, 3, 2], good, 3, 4)).toEqual([0, 2, 1]);
    expect(pickVector([0, 3, 2], good, 5, 5)).toBeNull();
    expect(pickVector([0, 3, 0], good, 1, 1)).toBeNull();
  });

  it('allAtOnce: the picked vector at the extreme of the word', () => {
    const v = viewA(FOUR);
    // Every test stays within the threshold: the first reachable sum in [max(0, 3 - 3), 3] is 0.
    expect(shown(allAtOnce(move(v, 3, 1, 'in'), spaceOf([], 3, false)))).toEqual(['min 0,0,0,0']);
    // "significant change" with no test significant after any change: x = 0 everywhere, at 'max'.
    expect(shown(allAtOnce(move(v, 3, 1, 'out'), spaceOf([], 3, true)))).toEqual(['max 0,0,0,0']);
    // Every test significant whatever x: no value keeps truncated or error not significant, so no vector.
    const sig: Space = { ...spaceOf([], 3, true), standing: () => ({ sig: true, ok: true }) };
    expect(shown(allAtOnce(move(v, 3, 1, 'out'), sig))).toEqual([]);
    // Not when the word needs only one test to move.
    expect(shown(allAtOnce(move(v, 3, 1, 'out', false), spaceOf([], 3, true)))).toEqual([]);
  });
});

describe('searchSpace (the iterator)', () => {
  const key = (m: Move): string => `${m.k} ${m.ci} ${m.view.run} ${m.ev} ${m.dir}`;

  it('yields each candidate once per move, and every candidate some strategy proposes', () => {
    let raw = 0;
    let yielded = 0;
    for (const c of fragilityCases(7, 40)) {
      const s = spaceOf(c.conditions.map(viewsOf), c.events.length);
      const byMove = new Map<string, string[]>();
      for (const cand of searchSpace(s)) {
        const list = byMove.get(key(cand.move)) ?? [];
        list.push(`${cand.ext} ${cand.xs.join(',')}`);
        byMove.set(key(cand.move), list);
      }
      for (const m of moves(s)) {
        const partners = s.events === 1 ? [null] : Array.from({ length: s.events }, (_, i) => i + 1).filter((g) => g !== m.ev);
        const proposed = [...partners.flatMap((f) => [...shown(partnerEnds(m, f)), ...shown(partnerScan(m, f, s))]), ...shown(pooledInto(m, s)), ...shown(allAtOnce(m, s))];
        const got = byMove.get(key(m)) ?? [];
        expect(new Set(got).size).toBe(got.length);
        expect(got).toEqual([...new Set(proposed)]);
        raw += proposed.length;
        yielded += got.length;
      }
    }
    // The strategies propose some candidates twice (x = 0 for every partner, say): each is tried once.
    expect(yielded).toBeGreaterThan(1000);
    expect(raw).toBeGreaterThan(yielded);
  });

  it('orders the moves by k, then condition, event, run and direction', () => {
    const [c] = fragilityCases(11, 1);
    const s = spaceOf((c as FragilityCase).conditions.map(viewsOf), (c as FragilityCase).events.length);
    const ms = [...moves(s)].map((m) => [m.k, m.ci, m.ev, m.view.run === 'A' ? 0 : 1, m.dir === 'out' ? 0 : 1]);
    const lexical = (a: number[], b: number[]): number => {
      const i = a.findIndex((x, j) => x !== b[j]);
      return i < 0 ? 0 : (a[i] as number) - (b[i] as number);
    };
    const sorted = [...ms].sort(lexical);
    expect(ms).toEqual(sorted);
    expect(new Set(ms.map(String)).size).toBe(ms.length);
  });
});
