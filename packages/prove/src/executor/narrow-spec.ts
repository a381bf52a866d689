import { ProveError } from '../errors.js';
import type { Axis, SweepSpec } from '../spec/sweep-spec.js';
import { ownValue, setOwn } from '../internal/own-key.js';
import { requireArgument } from 'poisson-core';

/** `--only` as data: axis name to the values to keep (strings are read as numbers on continuous axes). */
export type OnlySelection = Readonly<Record<string, readonly (string | number)[]>>;

/**
 * Parses `--only AXIS=V1,V2` arguments (the flag may be repeated) into an {@link OnlySelection}. The
 * values are separated by commas; a value that holds a comma writes it `\,` (and a backslash before a
 * comma or a backslash as `\\`); a backslash before anything else is itself.
 *
 * @param args - e.g. `['model=poe:gpt-5.5', 'task=a,b']`.
 * @returns axis name to values.
 * @throws ProveError `E_ONLY` (exit 2) listing every argument that is not `AXIS=V1[,V2...]` or names an
 *   axis twice.
 * @example
 * ```ts
 * parseOnly(['task=a,b']); // { task: ['a', 'b'] }
 * ```
 */
export function parseOnly(args: readonly string[]): Record<string, string[]> {
  requireArgument('parseOnly', 'args', args, 'array', 'an array of AXIS=VALUE strings');
  const out: Record<string, string[]> = {};
  const problems: string[] = [];
  for (const arg of args) {
    const at = arg.indexOf('=');
    const axis = at > 0 ? arg.slice(0, at).trim() : '';
    const values = at > 0 ? splitValues(arg.slice(at + 1)).map((v) => v.trim()) : [];
    if (axis === '' || values.length === 0 || values.some((v) => v === '')) {
      problems.push(`--only ${JSON.stringify(arg)} is not AXIS=V1[,V2...]; name an axis of the spec and the values to keep, e.g. --only task=a,b.`);
      continue;
    }
    if (Object.hasOwn(out, axis)) {
      problems.push(`--only names the axis "${axis}" twice; give its values once, separated by commas.`);
      continue;
    }
    setOwn(out, axis, values);
  }
  if (problems.length > 0) throw new ProveError('E_ONLY', problems);
  return out;
}

/** The values of `V1,V2`: split at the commas without a backslash before them, `\,` and `\\` read as `,` and `\`. */
function splitValues(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    const next = text[i + 1];
    if (ch === '\\' && (next === ',' || next === '\\')) {
      cur += next;
      i++;
    } else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/**
 * Narrows a spec's axes to a subset of their values (`sweep --only`, a smoke run before the full one).
 * The kept values stay in the spec's order; axes not named keep all their values.
 *
 * @param spec - the full spec.
 * @param only - axis name to values to keep.
 * @returns the narrowed spec and the selection as recorded in the manifest (values typed as the axis's).
 * @throws ProveError `E_ONLY` (exit 2) listing every unknown axis and every value the axis does not have.
 * @example
 * ```ts
 * narrowSpec(spec, { task: ['a'] }).spec.axes.task.values; // ['a']
 * ```
 */
export function narrowSpec(spec: SweepSpec, only: OnlySelection): { spec: SweepSpec; only: Record<string, Array<string | number>> } {
  requireArgument('narrowSpec', 'spec', spec, 'object', 'a sweep spec');
  requireArgument('narrowSpec', 'only', only, 'object');
  const problems: string[] = [];
  const axes: Record<string, Axis> = { ...spec.axes };
  const kept: Record<string, Array<string | number>> = {};
  for (const [name, wanted] of Object.entries(only)) {
    // An axis the spec has (`spec.axes[name]` read Object's members for `constructor`, `toString`, ...).
    const axis = ownValue(spec.axes, name);
    if (!axis) {
      problems.push(`--only names the axis "${name}", which the spec does not have; its axes are ${Object.keys(spec.axes).sort().join(', ')}.`);
      continue;
    }
    const values: readonly (string | number)[] = axis.values;
    const asAxis = (v: string | number): string | number => (axis.type === 'continuous' ? Number(v) : String(v));
    const want = wanted.map(asAxis);
    const unknown = wanted.filter((_, i) => !values.includes(want[i] as string | number));
    if (unknown.length > 0) {
      // Values split at a comma that belonged to one value: say how to write it.
      const joined = [wanted.map(String).join(', '), wanted.map(String).join(',')];
      const meant = values.find((v) => typeof v === 'string' && joined.includes(v));
      const hint = meant === undefined ? '' : ` A value that holds a comma is written with a backslash before it: --only '${name}=${String(meant).replace(/\\/g, '\\\\').replace(/,/g, '\\,')}'.`;
      problems.push(`--only ${name}=${unknown.join(',')}: the axis "${name}" has no value ${unknown.map((v) => JSON.stringify(v)).join(', ')}; its values are ${values.map((v) => JSON.stringify(v)).join(', ')}.${hint}`);
      continue;
    }
    const keep = values.filter((v) => want.includes(v));
    kept[name] = [...keep];
    axes[name] = (axis.type === 'continuous' ? { type: 'continuous', values: keep as number[] } : { type: 'categorical', values: keep as string[] }) as Axis;
  }
  if (problems.length > 0) throw new ProveError('E_ONLY', problems);
  return { spec: Object.freeze({ ...spec, axes: Object.freeze(axes) }), only: kept };
}
