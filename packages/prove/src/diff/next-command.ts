// The command a diff suggests next, as data: the `report` command that draws it as a grid. The CLI writes
// it as one shell-quoted line (cli/diff-output.ts); the library never quotes it.

/**
 * Which axes the `next:` line's report command names: the first two (name order) with more than one
 * value; only `--x` (a one-row grid) when one axis varies; when none does, the first two axes, as the
 * seed's `--x generator_hash --y horizon`. A varying axis of `first` (the same-sample axes, lm-eval's
 * `filter`, which a grid must keep apart) comes before the others.
 */
export function reportAxes(axes: readonly string[], valuesOf: (axis: string) => number, first: readonly string[] = []): string[] {
  const varying = [...axes.filter((a) => first.includes(a)), ...axes.filter((a) => !first.includes(a))].filter((a) => valuesOf(a) > 1);
  if (varying.length >= 2) return varying.slice(0, 2);
  if (varying.length === 1) return varying;
  return axes.slice(0, 2);
}

/**
 * The words after `poisson-prove` of the `report` command that draws a diff as a grid, unquoted:
 * `report BEFORE AFTER [--x X [--y Y]] [--event E]`, the axes by {@link reportAxes} and `--event` (the
 * first tested event) when the events were named or declared, or more than one was inferred.
 *
 * @example
 * ```ts
 * reportCommand({ before: 'run a', after: 'run b', axes: ['slack'], valuesOf: () => 2, events: ['failed'], inferred: false });
 * // ['report', 'run a', 'run b', '--x', 'slack', '--event', 'failed']
 * ```
 */
export function reportCommand(args: {
  readonly before: string;
  readonly after: string;
  readonly axes: readonly string[];
  readonly valuesOf: (axis: string) => number;
  readonly events: readonly string[];
  readonly inferred: boolean;
  /** The discordance given to the diff (`--discordance`), carried on so the report reads its cells as the diff did. */
  readonly discordance?: number | null;
  /** The diff's reading, carried on where it is not what the report reads without flags (`base`; fixed-n). */
  readonly q?: number;
  readonly method?: string;
  readonly power?: number;
  readonly sequential?: boolean;
  /** What the report reads without `--q`, `--power`, `--method` (the runs' recorded level; default 0.05, 0.8, exact). */
  readonly base?: { readonly q: number; readonly power: number; readonly method: string };
  /** Axes the grid must keep apart when they vary ({@link reportAxes}' `first`). */
  readonly first?: readonly string[];
}): readonly string[] {
  const [x, y] = reportAxes(args.axes, args.valuesOf, args.first);
  const words = ['report', args.before, args.after];
  if (x !== undefined) words.push('--x', x);
  if (y !== undefined) words.push('--y', y);
  if (!args.inferred || args.events.length > 1) words.push('--event', args.events[0] as string);
  words.push(...readingFlags(args));
  return Object.freeze(words);
}

/**
 * A diff's reading as `report` flags, where it is not what the command reads without them (`base`: the
 * level the runs' sweeps recorded, registered-reading.ts plainLevel; default q 0.05, exact, power 0.8),
 * and not fixed-n or no discordance given: so that the report a diff or its page names reads its cells as
 * the diff did. `--method` is left out under `--sequential`, which replaces it.
 */
export function readingFlags(r: {
  readonly q?: number | undefined;
  readonly method?: string | undefined;
  readonly power?: number | undefined;
  readonly sequential?: boolean | undefined;
  readonly discordance?: number | null | undefined;
  readonly base?: { readonly q: number; readonly power: number; readonly method: string } | undefined;
}): string[] {
  const out: string[] = [];
  const base = r.base ?? { q: 0.05, power: 0.8, method: 'exact' };
  if (r.q !== undefined && r.q !== base.q) out.push('--q', String(r.q));
  if (r.method !== undefined && r.method !== base.method && r.sequential !== true) out.push('--method', r.method);
  if (r.power !== undefined && r.power !== base.power) out.push('--power', String(r.power));
  if (r.sequential === true) out.push('--sequential');
  if (r.discordance !== undefined && r.discordance !== null) out.push('--discordance', String(r.discordance));
  return out;
}
