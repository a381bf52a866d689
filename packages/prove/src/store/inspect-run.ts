import { shown as shownValue } from 'poisson-core';
import type { EpisodeFields, EpisodeRow } from './episode-row.js';
import { emptyCounts, type RunManifest } from './manifest.js';
import { countsProblems, DamagedRunError, eachOpenPart, runPartsLeavingUncommitted, type OpenPart } from './verify-parts.js';
import { otherRegistrationProblem, partRegistration, unnamedRegistrationProblem } from './registration-rows.js';
import { internColumn } from './intern-column.js';
import { newestPartOfPair } from './newest-rows.js';
import { resolveRun } from './resolve-run.js';
import { liveWriter, recordedWriterAlive, unreadableLock } from './run-lock.js';
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
  /**
   * With `writer` gone: the run's lock file when it cannot be read (a writer killed as it wrote it), which
   * `resume` refuses until it is deleted; absent otherwise.
   */
  readonly unreadable_lock?: string;
  /**
   * For a run that is not complete: the parts a writer placed and did not record (it was killed between
   * the two), left out of the counts and episodes shown; `resume` checks them and adopts them. Absent when
   * there are none.
   */
  readonly uncommitted_parts?: readonly string[];
};

/**
 * A run's manifest, its outcome counts per condition, and the episodes that ended in `event` (or, without
 * an event, those without an outcome) including their `meta`.
 *
 * @param store - the store directory.
 * @param ref - a run ref ({@link resolveRun}).
 * @param opts - `event`: the outcome label to list; `limit`: at most this many episodes (default 20).
 * @returns the {@link RunInspection}, frozen.
 * A run that is not complete whose writer placed a part and was killed before recording it is shown
 * without that part, named in `uncommitted_parts`: every other read refuses such a run until `resume`
 * adopts the part.
 *
 * @throws {@link RefError}; {@link DamagedRunError} for a run whose parts or manifest are damaged; RangeError for a bad limit; TypeError for an `event` that is not a string or
 *   null; ProveError `E_EVENT` (exit 2) for an `event` no row of the run holds and its spec does not declare
 *   (as `diff` refuses it), naming the outcomes the run holds ("did you mean" for a near miss of one); an
 *   event the spec declared that no row holds lists 0 episodes.
 * @example
 * ```ts
 * (await inspectRun('store', '#1', { event: 'passed', limit: 3 })).episodes.length; // 3
 * ```
 * @see PROVE.md, "The CLI" (`inspect`).
 */
export async function inspectRun(store: string, ref: string, opts: { event?: string | null; limit?: number } = {}): Promise<RunInspection> {
  const limit = opts.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`inspectRun: limit must be an integer >= 0, got ${shownValue(limit)}`);
  if (opts.event !== undefined && opts.event !== null && typeof opts.event !== 'string') throw new TypeError(`inspectRun: event must be an outcome label (a string) or null, got ${shownValue(opts.event)}`);
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
  // A killed writer's part placed and not recorded is shown as such, not read (its rows are not the run's
  // until resume checks them): a review found inspect refused the very run it is there to look at.
  const { parts, uncommitted } = await runPartsLeavingUncommitted(store, manifest);
  // The newest row per pair (rows superseded by `resume --retry-errors` are skipped; without retries, a pair met twice is refused).
  const newest = await newestPartOfPair(manifest, parts);
  // A registration run.json records is named by a row (meta.pin): the meta of parts is read until one does.
  const records = manifest.registration_sha256 !== null && manifest.registration_sha256 !== undefined;
  let named: string | null = null;
  await eachOpenPart(
    manifest,
    parts,
    async (opened, k) => {
      if (records && named === null) named = await partRegistration(opened);
      // Counts from three columns as codes (decoded flat as the part is read, on the read thread too for
      // a large run), conditions and outcomes looked up once per run of equal codes; the whole rows of a
      // part are read only when one of them is shown.
      const part = await countColumns(opened);
      const { rows, conditions, condition, outcomes, outcome, replicate } = part;
      // Per outcome dictionary entry: its label's code in the run (-1: not yet looked up).
      const outcomeLabel = new Int32Array(outcomes.length).fill(-1);
      const eventAt = event === null ? -1 : outcomes.indexOf(event);
      const picks: number[] = [];
      let lastCondition = -2;
      let label = '';
      let tally: Tally | undefined;
      for (let i = 0; i < rows; i++) {
        const c = condition[i] as number;
        if (c !== lastCondition) {
          lastCondition = c;
          label = c < 0 ? 'null' : String(conditions[c]);
          tally = undefined;
        }
        if (!newest(k, label, replicate[i] as number)) continue; // superseded
        tally ??= tallyOf(label);
        const o = outcome[i] as number;
        tally.rows++;
        if (o < 0) tally.without++;
        else {
          let code = outcomeLabel[o] as number;
          if (code < 0) {
            const text = outcomes[o] as string;
            code = labelCode.get(text) ?? -1;
            if (code < 0) {
              code = labels.length;
              labels.push(text);
              labelCode.set(text, code);
            }
            outcomeLabel[o] = code;
          }
          if (tally.counts[code] === undefined) {
            tally.counts[code] = 0;
            tally.order.push(code);
          }
          (tally.counts[code] as number)++;
        }
        if (event === null ? o < 0 : o >= 0 && o === eventAt) {
          matching++;
          if (limit > 0) picks.push(i);
        }
      }
      const worst = chosen.length >= limit ? chosen[chosen.length - 1] : undefined;
      const labelAt = (i: number): string => ((condition[i] as number) < 0 ? 'null' : String(conditions[condition[i] as number]));
      const wanted = worst === undefined ? picks : picks.filter((i) => key(labelAt(i), replicate[i] as number) <= key(worst.condition, worst.replicate_index));
      if (wanted.length > 0) {
        const rows = await opened.rows();
        for (const i of wanted) chosen.push(rows[i] as EpisodeRow);
      }
      keep();
    },
    { flat: COUNT_COLUMNS },
  );
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
  // An event no row holds is refused unless the run's spec declared it (a table of none, as diff tests it):
  // "episodes with outcome nosuch: 0" would read as "none failed" (a review: diff --event nosuch refuses,
  // inspect listed 0), a near miss of a label it holds said as the likely misspelling.
  const declared = Array.isArray(manifest.events) ? (manifest.events as unknown[]) : [];
  if (event !== null && !labelCode.has(event) && !declared.includes(event)) {
    // An import has no spec to declare events in.
    const spec = manifest.import === undefined;
    const fix =
      labels.length === 0
        ? `it holds none (no episode has an outcome); ${spec ? 'name an event its spec declares, or ' : ''}inspect without --event for the episodes without an outcome.`
        : `it holds ${[...labels].sort().join(', ')}; name one of those${spec ? ', or an event its spec declares' : ''}.`;
    throw new ProveError('E_EVENT', `--event ${event} is an outcome run ${manifest.name} does not hold${didYouMean(event, labels)}; ${fix}`);
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
  const lock = writer === 'gone' ? await unreadableLock(store, manifest.run_id) : null;
  return Object.freeze({
    ...(lock !== null ? { unreadable_lock: lock } : {}),
    ...(uncommitted.length > 0 ? { uncommitted_parts: uncommitted } : {}),
    manifest,
    conditions: Object.freeze(conditions),
    event,
    matching,
    limit,
    episodes: Object.freeze(shown),
    writer,
  });
}

/** The columns inspect counts from. */
const COUNT_COLUMNS = ['condition', 'outcome', 'replicate_index'] as const;

/**
 * A part's condition and outcome as codes into their distinct values (-1: null; a condition column the
 * part lacks reads as `undefined`, as a row without it did) and its replicate indices as numbers (a null
 * or missing one 0, as `Number(null)`): decoded flat when the part is in the store's own shape, else from
 * hyparquet's columns, interned here, to the same values.
 */
type CountColumns = {
  readonly rows: number;
  readonly conditions: readonly unknown[];
  readonly condition: Int32Array;
  readonly outcomes: readonly string[];
  readonly outcome: Int32Array;
  readonly replicate: Float64Array;
};

async function countColumns(opened: OpenPart): Promise<CountColumns> {
  const flat = opened.flat(COUNT_COLUMNS);
  if (flat !== null) {
    const [condition, outcome, replicate] = flat.columns;
    if ((condition === null || condition?.kind === 'strings') && (outcome === null || outcome?.kind === 'strings') && (replicate === null || replicate?.kind === 'numbers')) {
      const rows = flat.rows;
      // A null index reads 0, as `Number(null)` (the decoded column is copied, not changed, for that).
      const replicates: Float64Array = replicate == null ? new Float64Array(rows) : replicate.nulls > 0 ? replicate.values.map((x) => (Number.isNaN(x) ? 0 : x)) : replicate.values;
      return {
        rows,
        conditions: condition == null ? [undefined] : condition.dictionary,
        condition: condition == null ? new Int32Array(rows) : condition.codes,
        outcomes: outcome == null ? [] : outcome.dictionary,
        outcome: outcome == null ? new Int32Array(rows).fill(-1) : outcome.codes,
        replicate: replicates,
      };
    }
  }
  const part = await opened.columns(COUNT_COLUMNS);
  const rows = part.rows;
  const column = (name: string): ArrayLike<unknown> | undefined => part.columns[name] as ArrayLike<unknown> | undefined;
  // A condition as its text (a null one "null", a missing column "undefined"), an outcome -1 when null.
  const condition = internColumn(column('condition'), rows, true);
  const outcome = internColumn(column('outcome'), rows, false);
  const replicate = column('replicate_index');
  const replicates = new Float64Array(rows);
  for (let i = 0; i < rows; i++) replicates[i] = Number(replicate?.[i] ?? null);
  return { rows, conditions: condition.values, condition: condition.codes, outcomes: outcome.values as string[], outcome: outcome.codes, replicate: replicates };
}
