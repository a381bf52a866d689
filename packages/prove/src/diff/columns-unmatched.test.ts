import { describe, expect, it } from 'vitest';
import { columnsUnmatched } from './partial.js';
import type { RunColumns } from './run-columns.js';
import { mulberry32 } from './__fixtures__/independent-runs.js';

/** A run's columns as columnsUnmatched reads them: the condition codes and labels, and the replicates. */
function run(rows: readonly (readonly [string, number])[]): RunColumns {
  const conditions = [...new Set(rows.map(([c]) => c))];
  return {
    length: rows.length,
    conditions,
    condition: Uint32Array.from(rows.map(([c]) => conditions.indexOf(c))),
    replicate: Float64Array.from(rows.map(([, r]) => r)),
  } as unknown as RunColumns;
}

/** The same counts by brute force over the distinct (condition, replicate) keys. */
function expected(a: readonly (readonly [string, number])[], b: readonly (readonly [string, number])[]): { before: number; after: number; compared: number } {
  const key = ([c, r]: readonly [string, number]) => `${c}\u0000${Object.is(r, -0) ? 0 : r}`;
  const A = new Set(a.map(key));
  const B = new Set(b.map(key));
  return { before: [...A].filter((k) => !B.has(k)).length, after: [...B].filter((k) => !A.has(k)).length, compared: [...A].filter((k) => B.has(k)).length };
}

describe('columnsUnmatched', () => {
  it('counts the pairs held by one run only and by both, by bytes where indices are dense and by sets where not', () => {
    const rand = mulberry32(7); // a fixed sequence, no Math.random
    const kinds: readonly ((r: number) => number)[] = [
      (r) => r, // dense, from 0
      (r) => r + 1_000_000_000, // sparse: far from 0 (sets)
      (r) => (r % 5 === 0 ? r + 0.5 : r), // fractional indices (sets)
      (r) => (r % 7 === 0 ? -r - 1 : r), // negative indices (sets)
      (r) => (r === 3 ? -0 : r === 4 ? Number.POSITIVE_INFINITY : r === 5 ? Number.NaN : r), // -0, Infinity and NaN (sets; -0 by bytes below)
    ];
    for (const kind of kinds) {
      for (let trial = 0; trial < 20; trial++) {
        const make = () => {
          const rows: [string, number][] = [];
          for (const c of ['a', 'b', 'c']) for (let r = 0; r < 60; r++) if (rand() < 0.7) rows.push([c, kind(r)]);
          // a retried pair: the same key twice
          if (rows.length > 0) rows.push(rows[0] as [string, number]);
          return rows;
        };
        const a = make();
        const b = make().filter(([c]) => c !== 'c' || rand() < 0.5);
        expect(columnsUnmatched(run(a), run(b))).toEqual(expected(a, b));
      }
    }
  });

  it('merges two condition codes of one label (not made by the readers), and reads -0 as 0', () => {
    const shared = { length: 4, conditions: ['a', 'a'], condition: Uint32Array.from([0, 0, 1, 1]), replicate: Float64Array.from([0, 1, 1, 2]) } as unknown as RunColumns;
    expect(columnsUnmatched(shared, run([['a', -0], ['a', 2], ['a', 3]]))).toEqual({ before: 1, after: 1, compared: 2 });
  });
});
