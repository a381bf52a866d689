import type { EpisodeFields, EpisodeRow } from './episode-row.js';
import { emptyCounts, type RunManifest } from './manifest.js';
import { countsProblems, DamagedRunError, eachOpenPart, runParts } from './verify-parts.js';
import { otherRegistrationProblem, partRegistration, unnamedRegistrationProblem } from './registration-rows.js';
import { newestPartOfPair } from './newest-rows.js';
import { resolveRun } from './resolve-run.js';
import { liveWriter, recordedWriterAlive } from './run-lock.js';
import { ProveError } from '../errors.js';
import { didYouMean } from '../internal/did-you-mean.js';
import { addCount, setOwn } from '../internal/own-key.js';

/** Outcome counts of one condition. */
export type ConditionCounts = {
  readonly condition: string;
  readonly rows: number;
  readonly rows_without_outcome: number;
  readonly outcomes: Readonly<Record<string, number>>;
};

/** An episode as `inspect` shows it: the stored row ({@link EpisodeRow}) with `meta` parsed. */
export type InspectedEpisode = EpisodeFields<unknown>;

/** What `inspect` reports about a run. */
export type RunInspection = {
  readonly manifest: RunManifest;
  /** Per condition, in the manifest's order. */
  readonly conditions: readonly ConditionCounts[];
  /** The outcome selected, or null: then the episodes shown are those without an outcome. */
  readonly event: string | null;
  /** How many episodes have that outcome (or none). */
  readonly matching: number;
  readonly limit: number;
  /** The first `limit` of them, by condition then replicate, with `meta` parsed. */
  readonly episodes: readonly InspectedEpisode[];
  /**
   * For a run whose status is `running`: `alive` when a live process holds its writer lock, `gone` when
   * none does (its sweep was killed or crashed: `resume` finishes it); null for any other status.
   */
  readonly writer: 'alive' | 'gone' | null;
};

/**
 * A run's manifest, its outcome counts per condition, and the episodes that ended in `event` (or, without
 * an event, those without an outcome) including their `meta`.
 *
 * @param store - the store directory.
 * @param ref - a run ref ({@link resolveRun}).
 * @param opts - `event`: the outcome label to list; `limit`: at most this many episodes (default 20).
 * @returns the {@link RunInspection}, frozen.
 * @throws {@link RefError}; RangeError for a bad limit; ProveError `E_EVENT` (exit 2) for an `event` the run
 *   does not hold that is a near miss of a label it holds (a misspelling: "did you mean"); another label it
 *   does not hold lists 0 episodes.
 * @example
 * ```ts
 * (await inspectRun('store', '#1', { event: 'passed', limit: 3 })).episodes.length; // 3
 * ```
 * @see PROVE.md, "The CLI" (`inspect`).
 */
export async function inspectRun(store: string, ref: string, opts: { event?: string | null; limit?: number } = {}): Promise<RunInspection> {
  const limit = opts.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`inspectRun: limit must be an integer >= 0, got ${String(limit)}`);
  const event = opts.event ?? null;
  const manifest = await resolveRun(store, ref);
  // Per condition (in the manifest's order, then as first met): rows, rows without an outcome, and per
  // outcome label its count, the labels in the order first met (as the counts' keys were added).
  type Tally = { rows: number; without: number; counts: number[]; order: number[] };
  const labels: string[] = [];
  const labelCode = new Map<string, number>();
  const tallies = new Map<string, Tally>();
  const tallyOf = (condition: string): Tally => {
    let t = tallies.get(condition);
    if (t === undefined) {
      t = { rows: 0, without: 0, counts: [], order: [] };
      tallies.set(condition, t);
    }
    return t;
  };
  for (const c of manifest.conditions) tallyOf(c);
  // Only the first `limit` matching rows (by condition, then replicate) are kept while the parts stream
  // by: memory is one part plus `limit` rows, whatever the run's size.
  const order = new Map(manifest.conditions.map((c, i) => [c, i]));
  const byPlace = (a: EpisodeRow, b: EpisodeRow): number =>
    (order.get(a.condition) ?? 0) - (order.get(b.condition) ?? 0) || a.replicate_index - b.replicate_index;
  let chosen: EpisodeRow[] = [];
  const keep = (): void => {
    chosen.sort(byPlace);
    chosen = chosen.slice(0, limit);
  };
  let matching = 0;
  const key = (condition: string, replicate: number): number => (order.get(condition) ?? 0) * 2 ** 32 + replicate;
  const parts = await runParts(store, manifest);
  // The newest row per pair (rows superseded by `resume --retry-errors` are skipped; without retries, a pair met twice is refused).
  const newest = await newestPartOfPair(manifest, parts);
  // A registration run.json records is named by a row (meta.pin): the meta of parts is read until one does.
  const records = manifest.registration_sha256 !== null && manifest.registration_sha256 !== undefined;
  let named: string | null = null;
  await eachOpenPart(manifest, parts, async (opened, k) => {
    if (records && named === null) named = await partRegistration(opened);
    // Counts from three columns, conditions and outcomes looked up once per run of equal values; the
    // whole rows of a part are read only when one of them is shown.
    const part = await opened.columns(['condition', 'outcome', 'replicate_index']);
    const condition = part.columns['condition'] ?? [];
    const outcome = part.columns['outcome'] ?? [];
    const replicate = part.columns['replicate_index'] ?? [];
    const picks: number[] = [];
    let lastCondition: unknown;
    let label: string | undefined;
    let tally: Tally | undefined;
    let lastOutcome: unknown;
    let code = -1;
    for (let i = 0; i < part.rows; i++) {
      const c = condition[i];
      if (label === undefined || c !== lastCondition) {
        lastCondition = c;
        label = String(c);
        tally = undefined;
      }
      if (!newest(k, label, Number(replicate[i] ?? null))) continue; // superseded
      tally ??= tallyOf(label);
      const o = (outcome[i] ?? null) as string | null;
      tally.rows++;
      if (o === null) tally.without++;
      else {
        if (o !== lastOutcome || code < 0) {
          lastOutcome = o;
          code = labelCode.get(o) ?? -1;
          if (code < 0) {
            code = labels.length;
            labels.push(o);
            labelCode.set(o, code);
          }
        }
        if (tally.counts[code] === undefined) {
          tally.counts[code] = 0;
          tally.order.push(code);
        }
        (tally.counts[code] as number)++;
      }
      if (o === event) {
        matching++;
        if (limit > 0) picks.push(i);
      }
    }
    const worst = chosen.length >= limit ? chosen[chosen.length - 1] : undefined;
    const wanted = worst === undefined ? picks : picks.filter((i) => key(String(condition[i]), Number(replicate[i])) <= key(worst.condition, worst.replicate_index));
    if (wanted.length > 0) {
      const rows = await opened.rows();
      for (const i of wanted) chosen.push(rows[i] as EpisodeRow);
    }
    keep();
  });
  keep();
  // The run's counts as its run.json states them are shown with these: they must be the rows'.
  const total = emptyCounts();
  for (const t of tallies.values()) {
    total.rows += t.rows;
    total.rows_without_outcome += t.without;
    for (const c of t.order) addCount(total.outcomes, labels[c] as string, t.counts[c] as number);
  }
  const differ = countsProblems(manifest, total);
  // Named by no row, or another than the rows name (an edited run.json; a review: inspect showed it as the run's).
  const registration = !records ? null : named === null ? unnamedRegistrationProblem(manifest, false) : otherRegistrationProblem(manifest, named);
  if (registration !== null) differ.push(registration);
  if (differ.length > 0) throw new DamagedRunError(manifest.run_id, differ);
  // An event the run does not hold is an answer (0 episodes), unless it is a near miss of a label it
  // holds and not one its spec declared: then it is most likely a misspelling, and 0 would read as "none failed".
  const declared = Array.isArray(manifest.events) ? (manifest.events as unknown[]) : [];
  if (event !== null && !labelCode.has(event) && !declared.includes(event)) {
    const near = didYouMean(event, labels);
    if (near !== '') {
      throw new ProveError('E_EVENT', `--event ${event} is an outcome run ${manifest.name} does not hold${near}; it holds ${[...labels].sort().join(', ')}; name one of those, or an outcome it may hold that is no near miss of them (which lists 0 episodes).`);
    }
  }
  const conditions = [...tallies].map(([condition, t]) => {
    const outcomes: Record<string, number> = {};
    for (const c of t.order) setOwn(outcomes, labels[c] as string, t.counts[c] as number);
    return Object.freeze({ condition, rows: t.rows, rows_without_outcome: t.without, outcomes });
  });
  const shown = chosen.map((r) => {
    let meta: unknown;
    try {
      meta = JSON.parse(r.meta);
    } catch {
      meta = r.meta;
    }
    return { ...r, meta } as InspectedEpisode;
  });
  // A run left `running` by a killed sweep says so: nothing runs it any more.
  // Its lock held by a live process, or the writer its manifest records still running (as resume reads it).
  const writer = manifest.status === 'running' ? ((await liveWriter(store, manifest.run_id)) !== null || recordedWriterAlive(manifest) ? 'alive' : 'gone') : null;
  return Object.freeze({
    manifest,
    conditions: Object.freeze(conditions),
    event,
    matching,
    limit,
    episodes: Object.freeze(shown),
    writer,
  });
}
