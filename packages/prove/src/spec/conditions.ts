import { conditionLabel } from 'poisson-core';
import { SpecError } from '../errors.js';
import { requireArgument } from 'poisson-core';

// The label lives in poisson-core (one home for every package that names conditions).
export { conditionLabel };
import type { SweepSpec } from './sweep-spec.js';

/** One combination of axis values, with its canonical label. */
export type Condition = {
  readonly label: string;
  readonly values: Readonly<Record<string, number | string>>;
};

/**
 * The conditions of a spec: the cartesian product of its axes' values. Axes are taken in name order and
 * the last axis varies fastest; values keep the order the spec lists them in.
 *
 * Formula: |conditions| = product over axes of |values|.
 *
 * @param spec - a spec from {@link parseSweepSpec}.
 * @returns the conditions, frozen, each with its canonical label ({@link conditionLabel}).
 * @throws {@link SpecError} when two conditions would share a label (axes not from {@link parseSweepSpec},
 *   which refuses the values that could).
 * @example
 * ```ts
 * conditionsOf(spec).map((c) => c.label); // ['slack 4 · strictness strict', 'slack 8 · strictness strict']
 * ```
 * @see PROVE.md, "The sweep spec".
 */
export function conditionsOf(spec: Pick<SweepSpec, 'axes'>): readonly Condition[] {
  requireArgument('conditionsOf', 'spec', spec, 'object', 'a sweep spec');
  const names = Object.keys(spec.axes).sort(byCodePoint);
  let combos: Record<string, number | string>[] = [{}];
  for (const name of names) {
    const axis = spec.axes[name];
    if (axis === undefined) continue;
    const next: Record<string, number | string>[] = [];
    for (const combo of combos) {
      for (const v of axis.values) {
        const c: Record<string, number | string> = { ...combo };
        Object.defineProperty(c, name, { value: v, enumerable: true, writable: true, configurable: true });
        next.push(c);
      }
    }
    combos = next;
  }
  const out = combos.map((values) => Object.freeze({ label: conditionLabel(values), values: Object.freeze(values) }));
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const c of out) (seen.has(c.label) ? twice : seen).add(c.label);
  if (twice.size > 0) {
    throw new SpecError([
      `the conditions ${[...twice].map((l) => JSON.stringify(l)).join(', ')} each arise from more than one combination of axis values; a categorical value must not contain " · " (fix the values).`,
    ]);
  }
  return Object.freeze(out);
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
