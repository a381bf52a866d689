import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ProveError } from '../errors.js';
import { conditionsOf } from '../spec/conditions.js';
import { seedFor } from '../spec/seed-for.js';
import { partRanges, registrationOf } from './run-writer.js';
import { episodesDir, PART_RE } from './layout.js';
import { countRow, emptyCounts, writeManifest, type PartRecord, type RunCounts, type RunManifest } from './manifest.js';
import { checkFooter, readPart, readPartIsolated } from './parquet.js';
import { axisTypes, schemaProblem } from './episode-schema.js';
import { labelledValues } from './part-design.js';
import { isImported, manifestProblems, specOf } from './manifest-problems.js';
import { lackingProblem } from './lacking-pairs.js';
import { countsProblems, DamagedRunError, listingProblems, partFilesOnDisk, runLabel, runParts, type RunPart, loadPart, unrecordedParts } from './verify-parts.js';
import { lostLock, strayFiles } from './part-temps.js';
import { missingPartsProblem } from './unverified-parts.js';
import { registrationMismatch, unnamedRegistrationProblem } from './registration-rows.js';
import type { RunLock } from './run-lock.js';
import type { SkippedRun } from './list-runs.js';
import { requireArgument } from 'poisson-core';

// meta: the registration its pin names, against run.json's `registration_sha256`.
const KEY_COLUMNS = ['run_id', 'condition', 'replicate_index', 'seed', 'outcome', 'meta'] as const;

/** The state `verify` reports of a run. */
export type VerifyState = 'verified' | 'unverified' | 'damaged';

/** What {@link verifyRun} found. */
export type RunVerification = {
  readonly run_id: string;
  readonly name: string;
  readonly status: string;
  /** `verified`: every part matches its record; `unverified`: written before checksums, parts read without damage; `damaged`: see `problems`. */
  readonly state: VerifyState;
  readonly parts: number;
  readonly rows: number;
  /** (condition, replicate) pairs held, and the design's conditions x replicates. */
  readonly pairs: number;
  readonly design: number;
  readonly problems: readonly string[];
};

/** Why a part of this run's rows that run.json does not record cannot be adopted: it is later than run.json. */
const LATER_PART = "run.json does not record it, and its rows are this run's: it was written after the run.json the run holds now (a copy restored from before a later resume, retry or extend)";

/** What the rows of a set of parts hold: the pairs, counts, and every problem with their rows. */
type Scan = { have: Set<string>; counts: RunCounts; problems: string[]; records: Map<string, PartRecord>; outcomes: ReadonlyMap<string, string | null>; named: boolean };

/**
 * Checks the rows of parts against the run: every `run_id` is the run's, every condition is one of its
 * conditions, every replicate index is within its replicates with the run's seed, and no
 * (condition, replicate) pair is held twice. `have` starts with pairs already held.
 */
async function scanParts(manifest: RunManifest, parts: readonly RunPart[], have = new Set<string>(), prior: ReadonlyMap<string, string | null> = new Map()): Promise<Scan> {
  const run = runLabel(manifest);
  const axes = axisTypes(manifest.axes);
  const axisNames = Object.keys(axes);
  // The key columns and every axis (each row's axis values against its condition's).
  const columns = [...KEY_COLUMNS, ...axisNames];
  const labelled = labelledValues(manifest);
  const conditions = new Set(manifest.conditions);
  const counts = emptyCounts();
  const problems: string[] = [];
  const records = new Map<string, PartRecord>();
  // `resume --retry-errors` writes a pair again in a later part (from `from_part` of its first retry);
  // that row supersedes the earlier one, and the counts are of the newest row per pair.
  const retryFrom = Math.min(...(manifest.retries ?? []).map((r) => r.from_part));
  const outcomes = new Map<string, string | null>();
  // An imported run records no seeds: its rows' seeds are their samples' identities, not the salt's.
  const imported = isImported(manifest);
  const sampleSeeds = new Map<string, number>();
  let named = false;
  for (const part of parts) {
    const index = Number(PART_RE.exec(part.file)?.[1] ?? -1);
    let bytes: Uint8Array;
    let rows: Record<string, unknown>[];
    try {
      bytes = await loadPart(manifest, part);
      // Its columns first: a part rewritten without a column (or with one retyped), its record to match,
      // reads as nulls there (a review, second session of 2026-12-07).
      let footer: ReturnType<typeof checkFooter>;
      try {
        footer = checkFooter(bytes, part.file, part.record?.rows ?? null);
      } catch (err) {
        throw new Error(`the part ${part.file} cannot be read as parquet: ${(err as Error).message}`);
      }
      const schema = schemaProblem(footer.schema, axes);
      if (schema !== null) {
        problems.push(`${run}: the part ${part.file}: its columns are not the run's episode columns: ${schema}.`);
        continue;
      }
      rows = part.record === null ? await readPartIsolated(bytes, part.file, columns) : await readPart(bytes, part.file, columns, part.record.rows);
    } catch (err) {
      if (err instanceof DamagedRunError) problems.push(...err.problems);
      else problems.push(`${run}: ${(err as Error).message}.`);
      continue;
    }
    const bad = new Set<string>();
    let doubled = 0;
    for (const row of rows) {
      const id = row['run_id'];
      if (id !== manifest.run_id) bad.add(`its rows belong to the run ${JSON.stringify(id)} (copied from another run)`);
      const c = String(row['condition']);
      const r = Number(row['replicate_index']);
      if (!conditions.has(c)) bad.add(`it holds the condition "${c}", which the run does not have`);
      const values = labelled.get(c);
      if (values !== undefined) {
        for (const axis of axisNames) {
          const want = values.get(axis);
          if (want !== undefined && row[axis] !== want) bad.add(`it holds ${axis} ${JSON.stringify(row[axis]) ?? 'null'} in a row of the condition "${c}", whose ${axis} is ${JSON.stringify(want)}`);
        }
      }
      if (!(Number.isInteger(r) && r >= 0 && r < manifest.replicates)) bad.add(`it holds replicate ${r}, outside the run's ${manifest.replicates}`);
      else if (imported) {
        // An import's seed is its sample's identity (identitySeed): one sample per seed in a condition.
        const seedKey = `${c}\u0000${String(row['seed'])}`;
        if (sampleSeeds.has(seedKey) && sampleSeeds.get(seedKey) !== r) bad.add(`the sample identity ${String(row['seed'])} is held by two replicates of "${c}"`);
        sampleSeeds.set(seedKey, r);
      } else if (row['seed'] !== manifest.seeds[r]) bad.add(`replicate ${r} has the seed ${String(row['seed'])}, not the run's ${String(manifest.seeds[r])}`);
      const key = `${c}\u0000${r}`;
      // A retry's row supersedes a row without an outcome, in a part from the retry's on: any other repeat
      // is a part held twice (a copy of an earlier part put in place after a retry was not one).
      if (have.has(key) && !(index >= retryFrom && (outcomes.has(key) ? outcomes.get(key) : prior.get(key)) === null)) doubled++;
      have.add(key);
      const o = row['outcome'];
      outcomes.set(key, o === null || o === undefined ? null : String(o));
      const meta = row['meta'];
      const pin = typeof meta === 'string' ? registrationOf(meta) : null;
      if (pin !== null) named = true;
      if (pin !== null && pin !== manifest.registration_sha256) bad.add(registrationMismatch(manifest, pin));
    }
    if (doubled > 0) {
      bad.add(
        part.record === null
          ? `${doubled} of its rows repeat (condition, replicate) pairs the recorded parts hold`
          : `${doubled} of its rows repeat (condition, replicate) pairs another part holds (a duplicated part: remove it if it is a copy of another part, keeping the part it copies)`,
      );
    }
    // A part run.json does not record, of this run's rows, that repeats pairs it holds or holds replicates
    // beyond it: written after the run.json the run holds now (one restored from a copy taken before a later
    // resume, retry or extend). Named so, with the fixes, where it was "a duplicated part: remove it if it
    // is a copy" (it is none) or its replicates alone, and verify said resume adopts it (a review, fifth
    // session of 2026-12-07).
    if (part.record === null && Array.isArray(manifest.parts) && ![...bad].some((b) => b.startsWith('its rows belong to the run')) && (doubled > 0 || [...bad].some((b) => b.includes("outside the run's")))) {
      bad.add(`${LATER_PART}; restore run.json from a copy taken after the part was written, or move the part out of the run's episodes directory to read the run as its run.json records it`);
    }
    // The record's ranges against its rows (readers trust them to skip parts and to bound the design).
    const rec = part.record;
    if (rec !== null && bad.size === 0) {
      const held = partRanges(manifest.conditions, rows as { condition: string; replicate_index: number }[]);
      // A record edited into something that is not a list is shown as it is (the listing check names it too).
      const text = (x: unknown): string => (x === null ? 'none' : Array.isArray(x) ? `[${x.join(',')}]` : JSON.stringify(x) ?? String(x));
      if (text(held.conditions) !== text(rec.conditions) || text(held.replicates) !== text(rec.replicates)) {
        bad.add(`its record in run.json gives conditions ${text(rec.conditions)} and replicates ${text(rec.replicates)}, and its rows hold conditions ${text(held.conditions)} and replicates ${text(held.replicates)}; the manifest was edited or damaged`);
      }
    }
    if (bad.size > 0) problems.push(`${run}: the part ${part.file}: ${[...bad].join('; ')}.`);
    else {
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      records.set(part.file, {
        file: part.file,
        sha256,
        bytes: bytes.byteLength,
        rows: rows.length,
        ...partRanges(manifest.conditions, rows as { condition: string; replicate_index: number }[]),
      });
    }
  }
  for (const o of outcomes.values()) countRow(counts, o);
  return { have, counts, problems, records, outcomes, named };
}

/**
 * Checks a run against its manifest completely (`poisson-prove verify`): the listing and spec.toml
 * (as every read does), every part's size and sha256, every row's run_id, condition, replicate and seed,
 * no (condition, replicate) pair held twice, the seeds against the salt, the counts, and (for a run
 * marked complete) every pair of its design held. A run written
 * before checksums is read the same way and reported `unverified` when nothing is wrong with its rows.
 *
 * @param store - the store directory.
 * @param manifest - the run's manifest.
 * @returns the frozen {@link RunVerification}.
 * @example
 * ```ts
 * (await verifyRun('store', await resolveRun('store', '#1'))).state; // 'verified'
 * ```
 * @see docs/store.md, "Checksums and verify".
 */
export async function verifyRun(store: string, manifest: RunManifest): Promise<RunVerification> {
  requireArgument('verifyRun', 'store', store, 'string', 'the store directory');
  requireArgument('verifyRun', 'manifest', manifest, 'object', 'a run manifest');
  const problems = manifestProblems(manifest, { spec: await specOf(store, manifest) });
  let parts: RunPart[] = [];
  try {
    parts = await runParts(store, manifest);
  } catch (err) {
    // A part or episodes directory that is not a regular file (E_STORE): this run is damaged; verify
    // goes on with the store's other runs. Its parts are not read (reading them would meet it again).
    if (err instanceof ProveError && err.code === 'E_STORE') {
      problems.push(`${runLabel(manifest)}: ${err.message.replace(/^run \S+: /, '')}`);
      return verification(manifest, 'damaged', 0, 0, 0, problems);
    }
    if (!(err instanceof DamagedRunError)) throw err;
    // The manifest's problems, which runParts names again with the verify command: once.
    const known = new Set(problems);
    problems.push(...err.problems.filter((p) => !known.has(p.replace(/; poisson-prove verify \S+ lists everything that differs\.$/, '.'))));
    // Go on with the parts that are both recorded and on disk, to report what else differs.
    const onDisk = new Set(await partFilesOnDisk(store, manifest.run_id));
    const dir = episodesDir(store, manifest.run_id);
    parts = Array.isArray(manifest.parts)
      ? manifest.parts.filter((r) => typeof r?.file === 'string' && onDisk.has(r.file)).map((record) => ({ file: record.file, path: join(dir, record.file), record }))
      : [...onDisk].map((file) => ({ file, path: join(dir, file), record: null }));
  }
  const scan = await scanParts(manifest, parts);
  problems.push(...scan.problems);
  // The parts of a run that is not complete that a writer placed and did not record ("resume checks it
  // and adopts it"): checked as resume checks them, so that a part resume would refuse is named with
  // why and its fix, not as one resume adopts.
  const uncommitted = new Map<string, string>();
  for (const p of problems) {
    const m = /: the part (part-\d+\.parquet) was not committed \(/.exec(p);
    if (m?.[1] !== undefined) uncommitted.set(m[1], p);
  }
  if (uncommitted.size > 0 && scan.problems.length === 0) {
    const dir = episodesDir(store, manifest.run_id);
    const fresh = await scanParts(manifest, [...uncommitted.keys()].map((file) => ({ file, path: join(dir, file), record: null })), new Set(scan.have), scan.outcomes);
    for (const [file, p] of uncommitted) {
      const why = fresh.problems.filter((q) => q.includes(`: the part ${file}: `));
      if (why.length > 0) problems.splice(problems.indexOf(p), 1, ...why);
    }
  }
  if (scan.problems.length === 0 && manifest.status === 'complete' && scan.counts.rows !== manifest.counts?.rows && !problems.some((p) => p.includes('counts'))) {
    problems.push(`${runLabel(manifest)}: its run.json counts ${String(manifest.counts?.rows)} rows and its parts hold ${scan.counts.rows}.`);
  }
  if (problems.length === 0) problems.push(...countsProblems(manifest, scan.counts));
  // Only when every recorded part was read: a missing part's rows may be the ones that name it (a review).
  const unnamed = problems.length === 0 ? unnamedRegistrationProblem(manifest, scan.named) : null;
  if (unnamed !== null) problems.push(unnamed);
  if (problems.length === 0) {
    const lacking = lackingProblem(manifest, scan.have.size);
    if (lacking !== null) problems.push(lacking);
  }
  const stray = await strayProblem(store, manifest);
  if (stray !== null) problems.push(stray);
  const state: VerifyState = problems.length > 0 ? 'damaged' : Array.isArray(manifest.parts) ? 'verified' : 'unverified';
  return verification(manifest, state, parts.length, scan.counts.rows, scan.have.size, problems);
}

/**
 * Files in the run's episodes/ that are not its parts: no read opens them, but a reader of the files by
 * the glob of docs/store.md (`part-*.parquet`) reads those the glob matches as parts.
 */
async function strayProblem(store: string, manifest: RunManifest): Promise<string | null> {
  const names = await strayFiles(store, manifest.run_id);
  if (names.length === 0) return null;
  const globbed = names.filter((n) => n.startsWith('part-') && n.endsWith('.parquet')).length;
  const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? `, and ${names.length - 5} more` : '');
  const read = globbed > 0 ? `; a reader of the part files by the glob part-*.parquet (DuckDB, pandas) reads ${globbed} of them as parts` : '';
  return `${runLabel(manifest)}: its episodes hold ${names.length} file${names.length === 1 ? '' : 's'} that ${names.length === 1 ? 'is not one of its parts' : 'are not its parts'} (${shown})${read}; remove ${names.length === 1 ? 'it' : 'them'}.`;
}

/**
 * The frozen {@link RunVerification} of a run: its design is the manifest's conditions x replicates, or
 * for an import what it holds (its tasks may differ in size: verify printed "11 of 15 pairs" of an
 * import of 3, 5 and 3 samples, as the readers, which take an import's design so, did not).
 */
function verification(manifest: RunManifest, state: VerifyState, parts: number, rows: number, pairs: number, problems: readonly string[]): RunVerification {
  const design = isImported(manifest) ? pairs : (Array.isArray(manifest.conditions) ? manifest.conditions.length : 0) * (Number(manifest.replicates) || 0);
  return Object.freeze({ run_id: manifest.run_id, name: manifest.name, status: manifest.status, state, parts, rows, pairs, design, problems: Object.freeze([...new Set(problems)]) });
}

/**
 * The {@link RunVerification} of a run directory the store's listing could not read as a run
 * ({@link scanRuns}'s `skipped`: a run.json that is not this run's manifest, or lost with parts left):
 * `damaged`, with the reason, its status `unreadable` and its name the directory's (no manifest names it).
 *
 * @param skipped - the directory and why it was skipped.
 * @returns the frozen verification.
 */
export function unreadableRun(skipped: SkippedRun): RunVerification {
  return Object.freeze({
    run_id: skipped.dir,
    name: skipped.dir,
    status: 'unreadable',
    state: 'damaged',
    parts: 0,
    rows: 0,
    pairs: 0,
    design: 0,
    problems: Object.freeze([`${skipped.dir}: ${skipped.reason}.`]),
  });
}

/**
 * Records in the manifest the parts it does not record yet, after checking their rows ({@link scanParts}):
 * for a run written before checksums, all its parts (`verify --adopt`); for a run whose writer was
 * killed between putting a part in place and recording it, that part (`resume` does this first). Call
 * it with the run's lock held. A part whose rows are not the run's, or repeat pairs already held (other
 * than a retry's rows superseding rows without an outcome), or a copy of a recorded part, is not adopted:
 * the call fails with every problem and writes nothing.
 *
 * @param store - the store directory.
 * @param manifest - the run's manifest, read under the lock.
 * @param lock - the run's lock, held.
 * @param opts - `lostParts`: record the parts of a run.json whose `parts` was deleted ({@link missingPartsProblem}),
 *   after checking their rows (`verify --adopt`); left out, such a run is refused. `write: false`: return
 *   the manifest with the parts recorded without writing it (resume writes it once its own checks pass).
 * @returns the manifest as rewritten (the same object when there was nothing to adopt) and the names adopted.
 * @throws {@link DamagedRunError} listing every problem (nothing is written).
 */
export async function adoptParts(store: string, manifest: RunManifest, lock: RunLock, opts: { lostParts?: boolean; write?: boolean } = {}): Promise<{ manifest: RunManifest; adopted: string[] }> {
  if (!(await lock.held())) throw lostLock(lock);
  // A run.json whose `parts` was deleted (it records what only a writer with checksums writes) is damage:
  // resume and extend do not record its parts as they are; `verify --adopt` does, after checking every row.
  const missing = opts.lostParts === true ? null : missingPartsProblem(manifest);
  if (missing !== null) throw new DamagedRunError(manifest.run_id, [missing]);
  const onDisk = await partFilesOnDisk(store, manifest.run_id);
  const recorded = Array.isArray(manifest.parts) ? manifest.parts : [];
  const known = new Set(recorded.map((r) => r.file));
  // The recorded parts must be intact (missing, changed, duplicated ones are not repaired here); a part
  // renamed or copied within the run (its bytes a recorded part's) is named so, not as one to adopt.
  const { copies: renamedOrCopied, stray } = await unrecordedParts(store, { ...manifest, parts: recorded }, onDisk);
  // A part another run's, or not parquet, is named so with its fix (remove it); not as one to adopt.
  const listing = listingProblems({ ...manifest, parts: recorded, status: 'running' }, onDisk, new Set(), renamedOrCopied, stray).filter((p) => !p.includes('was not committed'));
  if (listing.length > 0) throw new DamagedRunError(manifest.run_id, listing);
  const dir = episodesDir(store, manifest.run_id);
  // Their rows against their records (ranges, the registration they name), also for a complete run that
  // resume or extend is about to write into: an edited record that verify reports is refused here.
  const base = await scanParts(manifest, recorded.map((record) => ({ file: record.file, path: join(dir, record.file), record })));
  if (base.problems.length > 0) throw new DamagedRunError(manifest.run_id, base.problems);
  // A complete run committed every part before it closed: a part it does not record is its own only when
  // its record was lost, which `verify --adopt` (lostParts) checks; resume does not adopt one.
  if (manifest.status === 'complete' && Array.isArray(manifest.parts) && opts.lostParts !== true) return { manifest, adopted: [] };
  const fresh = onDisk.filter((f) => !known.has(f));
  if (fresh.length === 0 && Array.isArray(manifest.parts)) return { manifest, adopted: [] };
  const scan = await scanParts(manifest, fresh.map((file) => ({ file, path: join(dir, file), record: null })), base.have, base.outcomes);
  if (scan.problems.length > 0) throw new DamagedRunError(manifest.run_id, scan.problems);
  // (A byte-for-byte copy of a recorded part was refused by the listing above, whatever its rows.)
  const added = fresh.map((f) => scan.records.get(f) as PartRecord);
  // In the order they were written, by number (a part whose record was lost sits among the recorded ones).
  const number = (r: PartRecord): number => Number(PART_RE.exec(r.file)?.[1] ?? -1);
  const next: RunManifest = { ...manifest, parts: [...recorded, ...added].sort((x, y) => number(x) - number(y)) };
  if (opts.write !== false) await writeManifest(store, next);
  return { manifest: next, adopted: fresh };
}

/** What {@link adoptVerified} did: the run's manifest as it now is, the parts it recorded, and its verification. */
export type AdoptResult = {
  readonly manifest: RunManifest;
  /** The part files recorded (none when nothing was adopted, or when the adoption was refused). */
  readonly adopted: readonly string[];
  readonly verification: RunVerification;
  /** True when the run had parts to record and was found damaged: nothing was written. */
  readonly refused: boolean;
};

/**
 * `verify --adopt`: records the parts a run does not record yet ({@link adoptParts}, with `lostParts`),
 * only when the run with them recorded passes every check of {@link verifyRun} (its counts, its design,
 * its manifest, stray files); otherwise nothing is written and `refused` is true. Until 2026-12-06 the
 * checksums of a run verify had just reported damaged (a part's outcome flipped, `parts` deleted) were
 * recorded, and every reader then took the damage as the run's. Call it with the run's lock held.
 *
 * @param store - the store directory.
 * @param manifest - the run's manifest, read under the lock.
 * @param lock - the run's lock, held.
 * @returns the {@link AdoptResult}.
 */
export async function adoptVerified(store: string, manifest: RunManifest, lock: RunLock): Promise<AdoptResult> {
  let a: { manifest: RunManifest; adopted: string[] };
  try {
    a = await adoptParts(store, manifest, lock, { lostParts: true, write: false });
  } catch (err) {
    if (!(err instanceof DamagedRunError)) throw err;
    // What verify finds, and why the parts could not be adopted (their rows), in one report.
    const found = await verifyRun(store, manifest);
    const problems = Object.freeze([...new Set([...found.problems, ...err.problems])]);
    return Object.freeze({ manifest, adopted: [], verification: Object.freeze({ ...found, state: 'damaged' as const, problems }), refused: true });
  }
  if (a.manifest === manifest) return Object.freeze({ manifest, adopted: [], verification: await verifyRun(store, manifest), refused: false });
  const verification = await verifyRun(store, a.manifest);
  if (verification.state === 'damaged') return Object.freeze({ manifest, adopted: [], verification, refused: true });
  if (!(await lock.held())) throw lostLock(lock);
  await writeManifest(store, a.manifest);
  return Object.freeze({ manifest: a.manifest, adopted: a.adopted, verification, refused: false });
}
