import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ProveError } from '../errors.js';
import { countsProblems, DamagedRunError, verifyFix as fix } from './rows-counts.js';
import { manifestProblems, runLabel, specOfText } from './manifest-problems.js';

// Defined in rows-counts.ts (which the diff's readers load without this module and its parquet reader).
export { countsProblems, DamagedRunError };

export { runLabel };
import { episodesDir, PART_RE, specPath } from './layout.js';
import { readManifest, type PartRecord, type RunCounts, type RunManifest } from './manifest.js';
import { decodeFlatColumns, type FlatColumn, type FlatScratch, type FlatStrings } from './flat-columns.js';
import { readFileInto, releaseLarge, type FileFns, type ReadBuffer } from './read-into.js';
import { readOnThread, useReadThread } from './read-thread.js';
import { partDesign, type PartDesign } from './part-design.js';
import { missingPartsProblem, unverifiedRowsProblems } from './unverified-parts.js';
import { liveWriter } from './run-lock.js';
import { ACCESS_FIX, accessDenied, cannotRead, readRunFile } from './unreadable-file.js';
import { checkFooter, FLAT_LIB, readPart, readPartColumns, readPartIsolated, type PartColumns } from './parquet.js';
import { axisTypes, schemaProblem, type SchemaColumn } from './episode-schema.js';

// The one place a run's parts are listed and opened for reading. Every reader (readEpisodes,
// episodeBatches, episodes, inspect, the diff/report/export reader, resume and extend) gets its parts
// from runParts and their bytes from loadPart, so every row it uses comes from a part the manifest
// committed, whose bytes hash to what the manifest recorded. Parsing starts only after the checksum
// matched: a damaged part is an error before the parquet reader sees a byte of it.


/** A part of a run as listed for reading: its file name, path, and the manifest's record of it (null: written before checksums). */
export type RunPart = { readonly file: string; readonly path: string; readonly record: PartRecord | null };


/**
 * The part files in a run's episodes directory, sorted by name (not checked against the manifest).
 * The episodes directory and every part must be real files: a store never reads outside itself.
 *
 * @throws {@link StoreError}-like ProveError (`E_STORE`) for a symbolic link or a non-regular file.
 */
export async function partFilesOnDisk(store: string, runId: string): Promise<string[]> {
  const dir = episodesDir(store, runId);
  const st = await lstat(dir).catch((err: NodeJS.ErrnoException) => err);
  if (st instanceof Error) {
    if (st.code === 'ENOENT') return [];
    throw st;
  }
  if (!st.isDirectory()) {
    throw new ProveError('E_STORE', `run ${runId}: ${dir} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}; a run's episodes are a directory inside the store; replace it with the real directory.`);
  }
  // An episodes directory this user may not read: named so, with its fix (E_STORE: verify goes on with the
  // store's other runs), where the system's error stopped verify and said to run as a user who may write.
  const entries = await readdir(dir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (accessDenied(err.code)) throw new ProveError('E_STORE', `run ${runId}: ${cannotRead('its episodes directory', err.code as string)}.`);
    throw err;
  });
  const parts = entries.filter((e) => PART_RE.test(e.name));
  const odd = parts.filter((e) => !e.isFile());
  if (odd.length > 0) {
    throw new ProveError('E_STORE', `run ${runId}: the part${odd.length > 1 ? 's' : ''} ${odd.map((e) => e.name).join(', ')} ${odd.length > 1 ? 'are' : 'is'} not a regular file (a symbolic link?); a store reads only its own files; replace or remove ${odd.length > 1 ? 'them' : 'it'}.`);
  }
  return parts.map((e) => e.name).sort();
}


/**
 * The problems of a run's part listing against its manifest, without reading a part: parts the manifest
 * records that are not on disk, parts on disk it does not record (copied in, duplicated, or left by a
 * writer killed between putting the part in place and recording it), a file or checksum recorded
 * twice, a record whose ranges fall outside the design, and (for a complete run) counts that are not
 * the sum of the parts' rows. Empty when the listing matches, and for a run written before checksums
 * (no `parts`); a run.json without `parts` that records fields newer than them is damaged
 * ({@link missingPartsProblem}). `own`: the parts on disk a complete run does not record whose rows are
 * this run's (its run_id column) and whose bytes are no recorded part's ({@link unrecordedParts}):
 * named as parts whose record was lost, with the repair, not as another run's to remove. `copies`: the
 * unrecorded parts whose bytes are a recorded part's (its file): a recorded part that is missing while a
 * copy of it is on disk was renamed (named so, with the name to give it back), and a copy of a part that
 * is there is a duplicate to remove.
 */
export function listingProblems(manifest: RunManifest, onDisk: readonly string[], own: ReadonlySet<string> = new Set(), copies: ReadonlyMap<string, string> = new Map(), stray: ReadonlyMap<string, string> = new Map()): string[] {
  const recs = manifest.parts;
  if (!Array.isArray(recs)) {
    // A run written before checksums; unless its run.json records what only a writer with checksums writes.
    const missing = missingPartsProblem(manifest);
    return missing === null ? [] : [missing];
  }
  const run = runLabel(manifest);
  const out: string[] = [];
  const seenFile = new Set<string>();
  const seenSha = new Map<string, string>();
  const conditions = Array.isArray(manifest.conditions) ? manifest.conditions.length : 0;
  let rows = 0;
  let previous: { readonly file: string; readonly number: number } | null = null;
  for (const r of recs) {
    if (typeof r !== 'object' || r === null || typeof r.file !== 'string' || !PART_RE.test(r.file) || typeof r.sha256 !== 'string' || !Number.isInteger(r.rows) || !Number.isInteger(r.bytes)) {
      out.push(`${run}: its run.json records a part that is not a part record (${JSON.stringify(r)?.slice(0, 80)}); the manifest was edited or damaged; ${fix(manifest)}.`);
      continue;
    }
    rows += r.rows;
    if (seenFile.has(r.file)) out.push(`${run}: its run.json records the part ${r.file} twice; the manifest was edited or damaged.`);
    // The writer records its parts as it commits them, numbered in that order: the newest row of a pair
    // (after `resume --retry-errors`) is the one of the later part, which readers and resume take from
    // this order. Records moved about (no checksum touched) made them read superseded rows, and a retry
    // run again pairs that had outcomes.
    const number = Number(PART_RE.exec(r.file)?.[1]);
    if (previous !== null && !(number > previous.number)) {
      out.push(`${run}: its run.json records the part ${r.file} after ${previous.file}: parts are recorded in the order they were written, by number; the manifest was edited or damaged: restore run.json from a copy of the store, or list its parts in their numbers' order.`);
    }
    previous = { file: r.file, number };
    seenFile.add(r.file);
    const twin = seenSha.get(r.sha256);
    if (twin !== undefined && r.rows > 0) out.push(`${run}: the parts ${twin} and ${r.file} are recorded with the same sha256 (a duplicated part): its rows would be counted twice.`);
    seenSha.set(r.sha256, r.file);
    if (r.conditions !== null && !(Array.isArray(r.conditions) && r.conditions[0]! >= 0 && r.conditions[1]! < conditions)) {
      out.push(`${run}: its run.json records the part ${r.file} with conditions ${JSON.stringify(r.conditions)}, outside the run's ${conditions} conditions.`);
    }
    if (r.replicates !== null && !(Array.isArray(r.replicates) && r.replicates[0]! >= 0 && r.replicates[1]! < manifest.replicates)) {
      out.push(`${run}: its run.json records the part ${r.file} with replicates ${JSON.stringify(r.replicates)}, outside the run's ${manifest.replicates} replicates.`);
    }
    if (!onDisk.includes(r.file)) {
      const renamed = [...copies].find(([, of]) => of === r.file)?.[0];
      out.push(
        renamed !== undefined
          ? `${run}: the part ${r.file} is missing, and the part ${renamed} holds its bytes (the same sha256 ${r.sha256.slice(0, 12)}…, which the manifest records for ${r.file}): it was renamed; give it its name back (mv episodes/${renamed} episodes/${r.file} in the run's directory), and keep it: it is the run's only copy of those rows.`
          : `${run}: the part ${r.file} is missing (the manifest records ${r.rows} rows, sha256 ${r.sha256.slice(0, 12)}…); restore it from a copy of the store, or sweep again.`,
      );
    }
  }
  for (const f of onDisk) {
    const of = copies.get(f);
    if (!seenFile.has(f) && of !== undefined) {
      // A renamed part is named with its missing record above; a copy of a part that is there is a duplicate.
      if (onDisk.includes(of)) out.push(`${run}: the part ${f} is a byte-for-byte copy of its part ${of} (the same sha256), which the run records once; remove the copy ${f}.`);
    } else if (!seenFile.has(f)) {
      out.push(
        manifest.status !== 'complete'
          ? stray.has(f)
            ? `${run}: the part ${f} ${stray.get(f) as string}; remove it.`
            : `${run}: the part ${f} was not committed (a writer stopped between writing it and recording it); poisson-prove resume ${manifest.run_id} checks it and adopts it, or remove it.`
          : own.has(f)
            ? `${run}: the part ${f} holds rows of this run (its run_id column) that its run.json does not record: its record was lost (run.json edited, or restored from a copy taken before the part was written); poisson-prove verify --adopt ${manifest.run_id} records it when its rows are pairs of the run's design that its recorded parts do not hold, or restore run.json from a copy taken after the part was written.`
            : `${run}: the part ${f} is not one the run committed (copied in, or a duplicate of another part); its rows are not this run's: remove it.`,
      );
    }
  }
  // A retried run (`resume --retry-errors`) keeps the rows its retries superseded: one per pair run again,
  // at most the pairs each retry set out to run (`rows`, recorded before it ran: a retry interrupted or
  // stopped by its budget ran fewer, and a later resume completes the run without them).
  const retries = manifest.retries ?? [];
  const superseded = retries.reduce((n, r) => n + (Number(r.rows) || 0), 0);
  const counts = manifest.counts;
  const extra = counts !== null && typeof counts === 'object' ? rows - counts.rows : 0;
  // A part whose record was lost accounts for rows the counts hold: named above, and checked by verify --adopt.
  if (own.size === 0 && manifest.status === 'complete' && counts !== null && typeof counts === 'object' && (retries.length === 0 ? extra !== 0 : extra < 0 || extra > superseded)) {
    out.push(`${run}: its run.json counts ${String(manifest.counts.rows)} rows and its parts record ${rows}; the manifest was edited or damaged; ${fix(manifest)}.`);
  }
  return out;
}

/**
 * The seam every reader goes through: the parts of a run to read, in the order the manifest committed
 * them, after checking the listing against the manifest ({@link listingProblems}) and spec.toml against
 * `spec_sha256`. For a run written before checksums (no `parts`), every part on disk, unverified
 * (`record` null), after checking their rows for a pair held twice and a complete run's counts
 * ({@link unverifiedRowsProblems}).
 *
 * @param store - the store directory.
 * @param manifest - the run's manifest (resolved from the store).
 * @returns the parts to read.
 * @throws {@link DamagedRunError} (exit 2) listing every problem; ProveError `E_STORE` for symbolic links.
 * @see docs/store.md, "Checksums and verify".
 */
export async function runParts(store: string, manifest: RunManifest): Promise<RunPart[]> {
  return (await partsToRead(store, manifest, false)).parts;
}

/**
 * {@link runParts} for a look at a run whose writer stopped (`inspect`): the parts of a run that is not
 * complete that a writer placed and did not record (killed between the two; not a live writer's, not
 * another run's, not a copy of a recorded part) are left out of the read and named in `uncommitted`,
 * where {@link runParts} refuses the run until `resume` checks and adopts them. Every other problem is
 * refused as {@link runParts} refuses it.
 *
 * @returns the recorded parts to read, and the uncommitted parts left out (by file name).
 * @throws as {@link runParts}.
 */
export async function runPartsLeavingUncommitted(store: string, manifest: RunManifest): Promise<{ readonly parts: RunPart[]; readonly uncommitted: readonly string[] }> {
  return partsToRead(store, manifest, true);
}

async function partsToRead(store: string, manifest: RunManifest, leave: boolean): Promise<{ readonly parts: RunPart[]; readonly uncommitted: readonly string[] }> {
  let onDisk = await committedOnDisk(store, manifest, await partFilesOnDisk(store, manifest.run_id));
  const unrecorded = await unrecordedParts(store, manifest, onDisk);
  let uncommitted: string[] = [];
  const copies: string[] = [];
  const recs = manifest.parts;
  if (leave && manifest.status !== 'complete' && Array.isArray(recs)) {
    const recorded = new Set(recs.map((r) => (typeof r === 'object' && r !== null ? r.file : undefined)));
    uncommitted = onDisk.filter((f) => !recorded.has(f) && !unrecorded.copies.has(f) && !unrecorded.stray.has(f));
    onDisk = onDisk.filter((f) => !uncommitted.includes(f));
    // A copy of an uncommitted part is no writer's (a writer places each part once): named as a copy to
    // remove, not left out as a second uncommitted part (which resume would then refuse as a duplicate).
    const firstOfSha = new Map<string, string>();
    for (const f of uncommitted) {
      const sha = unrecorded.sha256.get(f) as string; // read: an unreadable file is stray
      const first = firstOfSha.get(sha);
      if (first === undefined) firstOfSha.set(sha, f);
      else copies.push(`${runLabel(manifest)}: the part ${f} is a byte-for-byte copy of the part ${first} (the same sha256), which a writer placed and did not record; remove the copy ${f}.`);
    }
  }
  let parts: RunPart[];
  try {
    parts = await checkedParts(store, manifest, onDisk, unrecorded);
  } catch (e) {
    if (e instanceof DamagedRunError && copies.length > 0) throw new DamagedRunError(manifest.run_id, [...e.problems, ...copies]);
    throw e;
  }
  if (copies.length > 0) throw new DamagedRunError(manifest.run_id, copies);
  return { parts, uncommitted: Object.freeze(uncommitted) };
}

/** {@link runParts}'s checks of the listing, spec.toml and the manifest, and the parts to read. */
async function checkedParts(store: string, manifest: RunManifest, onDisk: readonly string[], unrecorded: Awaited<ReturnType<typeof unrecordedParts>>): Promise<RunPart[]> {
  const problems = listingProblems(manifest, onDisk, unrecorded.own, unrecorded.copies, unrecorded.stray);
  const spec = await specChecked(store, manifest);
  if (spec.problem !== null) problems.push(spec.problem);
  // The manifest against itself (its seeds and salt, its conditions and axes): an edited salt made the
  // diff read two runs of one salt as unpaired; edited replicates read as a run to resume.
  // and its replicates against spec.toml's plus what its extensions add (a deleted extension record, raised replicates).
  problems.push(...manifestProblems(manifest, { seeds: 'ends', ...(spec.bytes !== null ? { spec: specOfText(spec.bytes) } : {}) }).map((p) => `${p.slice(0, -1)}; ${fix(manifest)}.`));
  const dir = episodesDir(store, manifest.run_id);
  const recs = manifest.parts;
  if (Array.isArray(recs)) {
    if (problems.length > 0) throw new DamagedRunError(manifest.run_id, problems);
    return recs.map((record) => Object.freeze({ file: record.file, path: join(dir, record.file), record }));
  }
  const unverified = onDisk.map((file) => Object.freeze({ file, path: join(dir, file), record: null }));
  // No listing to check the parts against: their rows are (a pair twice, a complete run's counts).
  if (problems.length === 0) problems.push(...(await unverifiedRowsProblems(manifest, unverified)));
  if (problems.length > 0) throw new DamagedRunError(manifest.run_id, problems);
  return unverified;
}

/**
 * The parts on disk a run does not record, read only when one exists: `copies`, those whose bytes are a
 * recorded part's (by sha256: a part renamed, or copied), each with the recorded part's file; and for a
 * complete run, `own`, the others whose rows are this run's (every value of their run_id column is the
 * run's id: a run.json whose record of a part was lost, or restored from a copy taken before an extend),
 * each read whole, in the bounded reader, its run_id column alone. A part that cannot be read is not the
 * run's here (the listing then says to remove it).
 */
export async function unrecordedParts(store: string, manifest: RunManifest, onDisk: readonly string[]): Promise<{ own: Set<string>; copies: Map<string, string>; stray: Map<string, string>; sha256: Map<string, string> }> {
  const own = new Set<string>();
  const copies = new Map<string, string>();
  const stray = new Map<string, string>();
  // Each unrecorded part's sha256, as read here (inspect tells a copy of an uncommitted part by it).
  const sha256 = new Map<string, string>();
  const recs = manifest.parts;
  if (!Array.isArray(recs)) return { own, copies, stray, sha256 };
  const recorded = new Set(recs.map((r) => (typeof r === 'object' && r !== null ? r.file : undefined)));
  const fileOfSha = new Map<unknown, string>();
  for (const r of recs) if (typeof r === 'object' && r !== null && typeof r.file === 'string') fileOfSha.set(r.sha256, r.file);
  const dir = episodesDir(store, manifest.run_id);
  for (const file of onDisk) {
    if (recorded.has(file)) continue;
    try {
      const bytes = await readFile(join(dir, file));
      const sha = createHash('sha256').update(bytes).digest('hex');
      sha256.set(file, sha);
      const of = fileOfSha.get(sha);
      if (of !== undefined) {
        copies.set(file, of);
        continue;
      }
      let rows: Record<string, unknown>[];
      try {
        rows = await readPartIsolated(bytes, file, ['run_id']);
      } catch (err) {
        // A writer places a part whole (a link to a file written and fsynced) or not at all.
        const why = (err as Error).message.replace(/^the part \S+ cannot be read as parquet: /, '');
        if (manifest.status !== 'complete') stray.set(file, `cannot be read as parquet (${why}): a writer places a part whole or not at all, so no writer of this run left it`);
        continue;
      }
      const other = rows.find((r) => r['run_id'] !== manifest.run_id);
      if (other !== undefined && manifest.status !== 'complete') stray.set(file, `holds rows of the run ${String(other['run_id'])}, not of this one (copied in): no writer of this run left it`);
      if (manifest.status === 'complete' && rows.length > 0 && other === undefined) own.add(file);
    } catch (err) {
      // Unreadable (too large to read whole, EIO): not shown to be the run's. In a run that is not
      // complete it is named so, with the fix, where it read as a part a stopped writer left for resume
      // to adopt, which resume then refused without one (a review).
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      if (manifest.status !== 'complete') stray.set(file, `cannot be read (${code}): a writer of this run places a part whole and readable, so it cannot be checked as one (check the disk first; resume runs again what it held)`);
    }
  }
  return { own, copies, stray, sha256 };
}

/**
 * The part files on disk less the ones committed since the caller read its run.json, or placed by a live
 * writer and not recorded yet. A writer commits a part by placing it, then rewriting run.json with its
 * record, so a reader may see a part before its record, or a part recorded after the reader's copy of
 * run.json (an extend meanwhile): run.json is read again, and a part it records now is not damage. A part
 * still unrecorded is a live writer's when the run is `running` and its lock names a live process
 * ({@link liveWriter}). Either way it is left out of this read (the reader's manifest does not record it).
 * Otherwise an unrecorded part is one a writer left when it stopped (`resume` adopts it).
 */
async function committedOnDisk(store: string, manifest: RunManifest, onDisk: string[]): Promise<string[]> {
  if (!Array.isArray(manifest.parts)) return onDisk;
  const filesOf = (m: RunManifest): Set<unknown> => new Set(Array.isArray(m.parts) ? m.parts.map((r) => (typeof r === 'object' && r !== null ? r.file : undefined)) : []);
  const recorded = filesOf(manifest);
  if (onDisk.every((f) => recorded.has(f))) return onDisk;
  const fresh = await readManifest(store, manifest.run_id).catch(() => null);
  const since = fresh !== null && fresh.run_id === manifest.run_id ? filesOf(fresh) : new Set<unknown>();
  const live = fresh?.status === 'running' && (await liveWriter(store, manifest.run_id)) !== null;
  return onDisk.filter((f) => recorded.has(f) || !(since.has(f) || live));
}

/** spec.toml against `spec_sha256`: the problem, or its bytes (read once: its replicates are read from them too). */
async function specChecked(store: string, manifest: RunManifest): Promise<{ readonly problem: string | null; readonly bytes: Buffer | null }> {
  const read = await readRunFile(specPath(store, manifest.run_id), 'its spec.toml');
  if ('missing' in read) return { problem: `${runLabel(manifest)}: its spec.toml is missing; restore it (its sha256 is ${String(manifest.spec_sha256).slice(0, 12)}…).`, bytes: null };
  if ('problem' in read) return { problem: `${runLabel(manifest)}: ${read.problem}${read.problem.includes(ACCESS_FIX) ? '' : `; restore it as a regular file (its sha256 is ${String(manifest.spec_sha256).slice(0, 12)}…)`}.`, bytes: null };
  const text = read.bytes;
  const sha = createHash('sha256').update(text).digest('hex');
  if (sha === manifest.spec_sha256) return { problem: null, bytes: text };
  return { problem: `${runLabel(manifest)}: its spec.toml was changed (sha256 ${sha.slice(0, 12)}…, the manifest records ${String(manifest.spec_sha256).slice(0, 12)}…); restore it: a run's spec is what it ran.`, bytes: null };
}

/**
 * A part's bytes, read whole and checked against the manifest's record (size, then sha256) before they
 * are handed to the parquet reader. A part without a record (a run written before checksums) is
 * returned unchecked.
 *
 * @throws {@link DamagedRunError} naming the run, the part and what differs.
 */
export async function loadPart(manifest: RunManifest, part: RunPart): Promise<Uint8Array> {
  return loadPartSync(manifest, part);
}

/** {@link loadPart}, in one synchronous step. */
function loadPartSync(manifest: RunManifest, part: RunPart): Uint8Array {
  // Read in one call: a part is a few 100 KB, and fs/promises' readFile (open, fstat, reads, close as
  // separate trips through the thread pool) took 1.5 to 4x as long over a 10^6-episode run's 200 parts
  // (docs/performance.md, "Reading"); the read thread reads its parts in parallel meanwhile.
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(part.path);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw unreadablePart(manifest, part, err.code ?? err.message);
  }
  checkPartBytes(manifest, part, bytes.byteLength, () => createHash('sha256').update(bytes).digest('hex'));
  return bytes;
}

/** The error of a part that cannot be read (`why`: the system's error code). */
export function unreadablePart(manifest: RunManifest, part: RunPart, why: string): DamagedRunError {
  return new DamagedRunError(manifest.run_id, [`${runLabel(manifest)}: ${cannotRead(`the part ${part.file}`, why)}.`]);
}

/**
 * Checks a part's bytes, as read, against the manifest's record: their size, then their sha256
 * (`sha256` is called only when the size matches). A part without a record passes unchecked.
 *
 * @throws {@link DamagedRunError} naming the run, the part and what differs.
 */
export function checkPartBytes(manifest: RunManifest, part: RunPart, byteLength: number, sha256: () => string): void {
  const r = part.record;
  if (r === null) return;
  if (byteLength !== r.bytes) {
    throw swappedPart(manifest, part) ?? new DamagedRunError(manifest.run_id, [`${runLabel(manifest)}: the part ${part.file} has ${byteLength} bytes and the manifest records ${r.bytes} (truncated or changed); ${fix(manifest)}.`]);
  }
  const sha = sha256();
  if (sha !== r.sha256) {
    throw swappedPart(manifest, part) ?? new DamagedRunError(manifest.run_id, [`${runLabel(manifest)}: the part ${part.file} was changed (sha256 ${sha.slice(0, 12)}…, the manifest records ${r.sha256.slice(0, 12)}…); ${fix(manifest)}.`]);
  }
}

/**
 * A recorded part whose bytes are another recorded part's (the same sha256): the part files were renamed
 * or swapped (`mv` between two parts), and every row is still there. Named so, with the name to give it
 * back, where it was "truncated or changed", to be restored from a copy of the store (a review, fifth
 * session of 2026-12-07). Read again here, on the error path only; null when the bytes are no part's.
 */
function swappedPart(manifest: RunManifest, part: RunPart): DamagedRunError | null {
  const recs = Array.isArray(manifest.parts) ? manifest.parts : [];
  let sha: string;
  try {
    sha = createHash('sha256').update(readFileSync(part.path)).digest('hex');
  } catch {
    return null;
  }
  const twin = recs.find((p) => typeof p === 'object' && p !== null && p.sha256 === sha && p.file !== part.file);
  if (twin === undefined) return null;
  // The part it holds the bytes of is there, intact: this one is a copy put over its own part, whose rows are gone.
  // Not there at all: that part was moved over this one (mv), and this one's own rows are gone too.
  const twinState = ((): 'intact' | 'missing' | 'other' => {
    try {
      return createHash('sha256').update(readFileSync(join(dirname(part.path), twin.file))).digest('hex') === twin.sha256 ? 'intact' : 'other';
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'other';
    }
  })();
  if (twinState === 'missing') {
    return new DamagedRunError(manifest.run_id, [
      `${runLabel(manifest)}: the part ${part.file} holds the bytes its run.json records for the part ${twin.file} (sha256 ${sha.slice(0, 12)}…), which is missing: ${twin.file} was moved over ${part.file}; give it its name back (${twin.file}) and keep it, it is the run's only copy of those rows; ${part.file}'s own rows are gone: restore ${part.file} from a copy of the store, or sweep again.`,
    ]);
  }
  if (twinState === 'intact') {
    return new DamagedRunError(manifest.run_id, [
      `${runLabel(manifest)}: the part ${part.file} holds the bytes of the part ${twin.file}, which is there too (sha256 ${sha.slice(0, 12)}…): a copy was put over it, and its own rows are gone; restore ${part.file} from a copy of the store, or sweep again.`,
    ]);
  }
  return new DamagedRunError(manifest.run_id, [
    `${runLabel(manifest)}: the part ${part.file} holds the bytes its run.json records for the part ${twin.file} (sha256 ${sha.slice(0, 12)}…): the part files were renamed or swapped, and their rows are all there; give each its name back (this one is ${twin.file}; ${fix(manifest).replace(/ lists everything that differs$/, ' names each')}), and keep them: they are the run's only copy of those rows.`,
  ]);
}

/**
 * The rows of one part (plain objects, as {@link readPart}), from bytes checked by {@link loadPart}.
 * A part that passes its checksum but cannot be parsed, or whose row count differs, is a
 * {@link DamagedRunError} too.
 */
export async function readRunPart(manifest: RunManifest, part: RunPart, columns?: readonly string[]): Promise<Record<string, unknown>[]> {
  const bytes = await loadPart(manifest, part);
  // Its footer first: a part copied in with its record names another run in its run_id statistics.
  if (part.record !== null) footerOfBytes(manifest, part, bytes);
  else uncheckedFooter(manifest, part, bytes);
  let rows: Record<string, unknown>[];
  try {
    // A part no checksum vouches for is parsed with its work bounded (a worker with a deadline).
    rows = part.record === null ? await readPartIsolated(bytes, part.file, columns) : await readPart(bytes, part.file, columns, part.record.rows);
  } catch (err) {
    throw new DamagedRunError(manifest.run_id, [`${runLabel(manifest)}: ${(err as Error).message}${part.record === null ? ' (a run written before checksums)' : ''}.`]);
  }
  checkDesignRows(manifest, part, rows);
  return rows;
}

/** A part's rows against the run's design ({@link partDesign}): its run, its conditions, its seeds. */
function checkDesignRows(manifest: RunManifest, part: RunPart, rows: readonly Record<string, unknown>[]): void {
  if (rows.length === 0) return;
  const cols = Object.keys(rows[0] as Record<string, unknown>);
  const columns: Record<string, unknown[]> = {};
  for (const c of ['run_id', 'condition', 'replicate_index', 'seed', ...Object.keys(manifest.axes ?? {})]) if (cols.includes(c)) columns[c] = rows.map((r) => r[c]);
  checkDesignColumns(manifest, part, columns, rows.length);
}

/** A value as the readers take it: bigint as a number. */
const num = (x: unknown): number => (typeof x === 'bigint' ? Number(x) : typeof x === 'number' ? x : Number.NaN);

/** Columns of a part (any of run_id, condition, replicate_index, seed) against the run's design. */
function checkDesignColumns(manifest: RunManifest, part: RunPart, columns: Readonly<Record<string, ArrayLike<unknown> | undefined>>, rows: number): void {
  const d = partDesign(manifest, part.file);
  const fail = (problem: string | null): void => {
    if (problem !== null) throw new DamagedRunError(manifest.run_id, [problem]);
  };
  const ids = columns['run_id'];
  if (ids !== undefined) {
    let last: unknown = manifest.run_id;
    for (let i = 0; i < rows; i++) if (ids[i] !== last) fail(d.runId((last = ids[i])));
  }
  const conditions = columns['condition'];
  const seen = new Set<unknown>();
  if (conditions !== undefined) for (let i = 0; i < rows; i++) if (!seen.has(conditions[i])) seen.add(conditions[i]), fail(d.condition(String(conditions[i])));
  if (conditions !== undefined) {
    for (const axis of Object.keys(manifest.axes ?? {})) {
      const values = columns[axis];
      if (values === undefined) continue;
      let label = '';
      let e: string | number | undefined;
      for (let i = 0; i < rows; i++) {
        const l = String(conditions[i]);
        if (l !== label || i === 0) e = d.expected((label = l), axis);
        if (e !== undefined && values[i] !== e) fail(d.axis(label, axis, values[i]));
      }
    }
  }
  const rs = columns['replicate_index'];
  const seeds = columns['seed'];
  if (rs === undefined) return;
  const label = (i: number): string => (conditions === undefined ? 'its condition' : String(conditions[i]));
  if (seeds === undefined) {
    // A reader of no seeds (export, inspect): each replicate one the run has a seed for.
    const n = d.seeds?.length ?? 0;
    if (d.seeds !== null) for (let i = 0; i < rows; i++) {
      const r = num(rs[i]);
      if (!(Number.isInteger(r) && r >= 0 && r < n)) fail(d.replicate(label(i), r));
    }
    return;
  }
  for (let i = 0; i < rows; i++) {
    const problem = d.seed(label(i), num(rs[i]), num(seeds[i]));
    if (problem !== null) fail(problem);
  }
}

/**
 * The first row of a decoded axis column whose value is not its condition's ({@link PartDesign.expected}),
 * as a sentence, or null. Strings compare by code: each condition's value is found in the column's
 * dictionary once; numbers compare as doubles. A condition whose label names no value is not checked.
 */
function axisProblem(d: PartDesign, condition: FlatStrings, axis: string, column: FlatColumn, rows: number): string | null {
  const labels = condition.dictionary;
  const cc = condition.codes;
  if (column.kind === 'strings') {
    const index = new Map(column.dictionary.map((v, i) => [v, i]));
    // The code each condition's rows must hold: -2 unchecked, -3 a value the column's dictionary lacks.
    const want = Int32Array.from(labels, (label) => {
      const e = d.expected(label, axis);
      return e === undefined ? -2 : (index.get(String(e)) ?? -3);
    });
    const codes = column.codes;
    for (let i = 0; i < rows; i++) {
      const c = cc[i] as number;
      if (c < 0) continue;
      const w = want[c] as number;
      if (w !== -2 && codes[i] !== w) {
        const k = codes[i] as number;
        return d.axis(labels[c] as string, axis, typeof d.expected(labels[c] as string, axis) === 'number' ? Number(column.dictionary[k]) : k < 0 ? null : column.dictionary[k]);
      }
    }
    return null;
  }
  const want = new Float64Array(labels.length);
  const checked = new Uint8Array(labels.length);
  labels.forEach((label, k) => {
    const e = d.expected(label, axis);
    if (typeof e === 'number') {
      want[k] = e;
      checked[k] = 1;
    }
  });
  const values = column.values;
  for (let i = 0; i < rows; i++) {
    const c = cc[i] as number;
    if (c >= 0 && checked[c] === 1 && values[i] !== want[c]) return d.axis(labels[c] as string, axis, values[i]);
  }
  return null;
}

/** Whether a decoded string column holds a null (a code of -1). */
function hasNull(codes: Int32Array): boolean {
  for (let i = 0; i < codes.length; i++) if ((codes[i] as number) < 0) return true;
  return false;
}

/** Flat columns of a part against the run's design (strings checked by their dictionaries). */
function checkDesignFlat(manifest: RunManifest, part: RunPart, names: readonly string[], flat: FlatPart): void {
  const at = (name: string): FlatColumn | null | undefined => flat.columns[names.indexOf(name)];
  const d = partDesign(manifest, part.file);
  const fail = (problem: string | null): void => {
    if (problem !== null) throw new DamagedRunError(manifest.run_id, [problem]);
  };
  // Each distinct value once (the dictionary), and a null (code -1) as the rows read it: a null run_id,
  // a null condition (read as "null"). A null was not checked until the first session of 2026-12-07 (a
  // review: a part rewritten with a null condition was read as a condition "null" the run does not list).
  const ids = names.includes('run_id') ? at('run_id') : undefined;
  if (ids?.kind === 'strings') {
    for (const id of ids.dictionary) fail(d.runId(id));
    if (hasNull(ids.codes)) fail(d.runId(null));
  }
  const condition = names.includes('condition') ? at('condition') : undefined;
  if (condition?.kind === 'strings') {
    for (const label of condition.dictionary) fail(d.condition(label));
    if (hasNull(condition.codes)) fail(d.condition('null'));
    // Each axis column decoded (report's), against its rows' condition (a review: a part rewritten with
    // other axis values than its conditions' was read as another column of the grid).
    for (const axis of Object.keys(manifest.axes ?? {})) {
      const column = names.includes(axis) ? at(axis) : undefined;
      if (column !== undefined && column !== null) fail(axisProblem(d, condition, axis, column, flat.rows));
    }
  }
  const rs = names.includes('replicate_index') ? at('replicate_index') : undefined;
  const seeds = names.includes('seed') ? at('seed') : undefined;
  if (rs?.kind !== 'numbers') return;
  const r = rs.values;
  const expected = d.seeds;
  if (expected === null) return;
  const label = (i: number): string => (condition?.kind === 'strings' ? (condition.dictionary[condition.codes[i] as number] ?? 'its condition') : 'its condition');
  if (seeds?.kind !== 'numbers') {
    // A reader of no seeds (export, inspect): each replicate one the run has a seed for.
    const n = expected.length;
    for (let i = 0; i < flat.rows; i++) {
      const k = r[i] as number;
      if (!(k >= 0 && k < n && Number.isInteger(k))) fail(d.replicate(label(i), k));
    }
    return;
  }
  const s = seeds.values;
  for (let i = 0; i < flat.rows; i++) {
    const k = r[i] as number;
    if (expected[k] === s[i]) continue; // a replicate without a seed (k outside them) is refused by d.seed
    fail(d.seed(label(i), k, s[i] as number));
  }
}

/**
 * An opened part whose columns, rows and flat columns are checked against the run's design as they are
 * decoded ({@link partDesign}): a run.json edited consistently with itself (another salt's seeds, fewer
 * conditions, `parts` deleted) is refused by what its rows hold, not read as another design.
 */
function designChecked(manifest: RunManifest, opened: OpenPart): OpenPart {
  return Object.freeze({
    part: opened.part,
    columns: async (cols: readonly string[]) => {
      const c = await opened.columns(cols);
      checkDesignColumns(manifest, opened.part, c.columns as Record<string, ArrayLike<unknown> | undefined>, c.rows);
      return c;
    },
    rows: async (cols?: readonly string[]) => {
      const r = await opened.rows(cols);
      checkDesignRows(manifest, opened.part, r);
      return r;
    },
    flat: (cols: readonly string[]) => {
      const f = opened.flat(cols);
      if (f !== null) checkDesignFlat(manifest, opened.part, cols, f);
      return f;
    },
  });
}

/** One part, loaded and checked, ready to be read by columns or by rows. */
export type OpenPart = {
  readonly part: RunPart;
  /** Only these columns, column by column (no row objects). */
  columns(columns: readonly string[]): Promise<PartColumns>;
  /** Rows as plain objects, as {@link readRunPart} gives them. */
  rows(columns?: readonly string[]): Promise<Record<string, unknown>[]>;
  /**
   * Only these columns, decoded flat ({@link decodeFlatColumns}: numbers in Float64Arrays, strings as
   * a dictionary and codes), or null when the part is not in a shape the flat decoder reads (then
   * {@link OpenPart.columns} reads it).
   */
  flat(columns: readonly string[]): FlatPart | null;
};

/** The flat decoder's buffers in this thread (it runs synchronously: one part at a time). */
const SCRATCH: FlatScratch = { bytes: new Uint8Array(0), levels: new Uint8Array(0), indices: new Int32Array(0) };

/** Some columns of one part decoded flat: per column asked for, its values (null: the part lacks it). */
export type FlatPart = { readonly rows: number; readonly columns: readonly (FlatColumn | null)[] };

/**
 * Loads one part for the columnar readers (the diff, report, inspect): its bytes are read whole and
 * checked by {@link loadPart} (size, sha256) and its footer before any column is decoded. A part no
 * checksum vouches for (a run written before checksums) is parsed once, with its work bounded in a
 * worker ({@link readPartIsolated}), and its columns are served from those rows.
 *
 * @throws {@link DamagedRunError} naming the run, the part and what differs.
 */
export async function openRunPart(manifest: RunManifest, part: RunPart): Promise<OpenPart> {
  const bytes = await loadPart(manifest, part);
  if (part.record === null) {
    uncheckedFooter(manifest, part, bytes);
    let all: Record<string, unknown>[];
    try {
      all = await readPartIsolated(bytes, part.file);
    } catch (err) {
      throw damagedPart(manifest, part, err);
    }
    // No checksum vouches for it: its rows say whose they are, at once.
    checkDesignRows(manifest, part, all);
    return Object.freeze({
      part,
      columns: (cols: readonly string[]) => Promise.resolve(columnsOfRows(all, cols)),
      rows: (cols?: readonly string[]) => Promise.resolve(cols ? all.map((r) => Object.fromEntries(cols.filter((c) => c in r).map((c) => [c, r[c]]))) : all),
      flat: () => null,
    });
  }
  return designChecked(manifest, openCheckedPart(manifest, part, bytes));
}

/** A part's error as a {@link DamagedRunError} naming the run (a DamagedRunError as it is). */
function damagedPart(manifest: RunManifest, part: RunPart, err: unknown): DamagedRunError {
  return err instanceof DamagedRunError ? err : new DamagedRunError(manifest.run_id, [`${runLabel(manifest)}: ${(err as Error).message}${part.record === null ? ' (a run written before checksums)' : ''}.`]);
}

/**
 * A part with a record whose bytes passed {@link checkPartBytes}, opened: its footer checked at once,
 * its bytes kept for the columns asked of it.
 */
export function openCheckedPart(manifest: RunManifest, part: RunPart, bytes: Uint8Array): OpenPart {
  const damaged = (err: unknown): DamagedRunError => damagedPart(manifest, part, err);
  const expected = (part.record as PartRecord).rows;
  const footer = footerOfBytes(manifest, part, bytes);
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const buffer = (whole ? bytes.buffer : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)) as ArrayBuffer;
  return Object.freeze({
    part,
    columns: async (cols: readonly string[]) => {
      try {
        const c = await readPartColumns({ file: part.path, buffer }, cols, footer);
        if (c.rows !== expected) throw new Error(`the part ${part.file} holds ${c.rows} rows, and the manifest records ${expected}`);
        return c;
      } catch (err) {
        throw damaged(err);
      }
    },
    rows: async (cols?: readonly string[]) => {
      try {
        return await readPart(bytes, part.file, cols, expected);
      } catch (err) {
        throw damaged(err);
      }
    },
    flat: (cols: readonly string[]) => decodeFlat(manifest, part, bytes, footer, cols),
  });
}

/** A checked part's footer ({@link checkFooter}), its error a {@link DamagedRunError}. */
function footerOfBytes(manifest: RunManifest, part: RunPart, bytes: Uint8Array): ReturnType<typeof checkFooter> {
  let footer: ReturnType<typeof checkFooter>;
  try {
    footer = checkFooter(bytes, part.file, (part.record as PartRecord).rows);
  } catch (err) {
    throw damagedPart(manifest, part, new Error(`the part ${part.file} cannot be read as parquet: ${(err as Error).message}`));
  }
  // Whose rows first (a part copied in from a run of other axes is named as copied, with its fix), then
  // its columns.
  const other = foreignRunId(manifest, part, bytes, footer);
  if (other !== null) throw copiedPart(manifest, part, other);
  checkSchema(manifest, part, footer.schema);
  return footer;
}

/**
 * A part's columns against the run's episode columns ({@link schemaProblem}): names, types, and no nulls
 * where the episodes hold none. A part rewritten by another program (a column dropped, retyped or added)
 * with its record in run.json to match passes the size and sha256 checks: only its schema says so.
 *
 * @throws {@link DamagedRunError} naming the run, the part and every difference.
 */
function checkSchema(manifest: RunManifest, part: RunPart, schema: readonly SchemaColumn[]): void {
  const problem = schemaProblem(schema, axisTypes(manifest.axes));
  if (problem === null) return;
  throw new DamagedRunError(manifest.run_id, [
    `${runLabel(manifest)}: its part ${part.file} does not hold the run's episode columns: ${problem}; the part was rewritten by another program${part.record !== null ? ' (its record in run.json to match)' : ''}; ${fix(manifest)}.`,
  ]);
}

/** The footer of a part no checksum vouches for, parsed (bounded by the file's size) and its schema checked. */
function uncheckedFooter(manifest: RunManifest, part: RunPart, bytes: Uint8Array): void {
  let footer: ReturnType<typeof checkFooter>;
  try {
    footer = checkFooter(bytes, part.file, null);
  } catch (err) {
    throw damagedPart(manifest, part, new Error(`the part ${part.file} cannot be read as parquet: ${(err as Error).message}`));
  }
  checkSchema(manifest, part, footer.schema);
}

/** The error of a part with a record whose run_id column names another run (`other`: the id it reads, `whole` or a prefix). */
function copiedPart(manifest: RunManifest, part: RunPart, other: { readonly id: string; readonly whole: boolean }): DamagedRunError {
  return new DamagedRunError(manifest.run_id, [
    `${runLabel(manifest)}: the part ${part.file} holds rows of another run (its run_id column reads ${other.id}${other.whole ? '' : '…'}), though its bytes match the record in run.json: the part and its record were copied from another run; ${fix(manifest)}.`,
  ]);
}

/**
 * The run id a part's `run_id` column names when it is not the run's, or null. From the column's min/max
 * statistics in the footer when they are both the run's id, whole (not flagged as truncated): nothing
 * decoded. The writer keeps them whole since 2026-12-05 (part-encoder.ts); before, it kept 16 characters,
 * the id's time stamp, which a run made in the same second shares: for such a part (and one without
 * statistics) the column itself is decoded (one value in a dictionary, and its codes; never another
 * column) and its every value checked ({@link partDesign}), as `verify` does. Only when the flat decoder
 * declines the part's shape is the answer the statistics' alone (a truncated min is a prefix of the id,
 * a truncated max the prefix with its last character raised), and the column is checked as a read decodes it.
 * A part copied in with its record in run.json passes the size and sha256 checks: only its rows say whose they are.
 */
function foreignRunId(manifest: RunManifest, part: RunPart, bytes: Uint8Array, footer: ReturnType<typeof checkFooter>): { id: string; whole: boolean } | null {
  const runId = manifest.run_id;
  const chunks = footer.row_groups.map((g) => g.columns.find((c) => c.meta_data?.path_in_schema.length === 1 && c.meta_data.path_in_schema[0] === 'run_id')?.meta_data);
  if (chunks.every((m) => m === undefined)) return null; // no run_id column (nothing of it to read)
  const whole = chunks.every((m) => {
    const stats = m?.statistics;
    // And no null among them (a null has no min or max: a part with one row's run_id null read whole).
    return stats !== undefined && stats.min_value === runId && stats.max_value === runId && stats.is_min_value_exact !== false && stats.is_max_value_exact !== false && !(Number(stats.null_count ?? 0) > 0);
  });
  if (whole) return null;
  let decoded: ReturnType<typeof decodeFlatColumns> = null;
  try {
    decoded = decodeFlatColumns(FLAT_LIB, bytes, footer, ['run_id'], SCRATCH);
  } catch (err) {
    throw damagedPart(manifest, part, new Error(`the part ${part.file} cannot be read as parquet: ${(err as Error).message}`));
  }
  const ids = decoded?.[0];
  if (ids?.kind === 'strings') {
    if (hasNull(ids.codes)) throw new DamagedRunError(manifest.run_id, [partDesign(manifest, part.file).runId(null) as string]);
    return foreignInColumn(manifest, part, ids);
  }
  for (const meta of chunks) {
    const stats = meta?.statistics;
    const min: unknown = stats?.min_value;
    const max: unknown = stats?.max_value;
    if (typeof min !== 'string' || typeof max !== 'string') continue;
    const minOk = stats?.is_min_value_exact === true ? min === runId : runId.startsWith(min);
    // A truncated max is the prefix with its last character raised (`...433Z` gives `...433[`).
    const maxOk = stats?.is_max_value_exact === true ? max === runId : runId.startsWith(max) || (max.length > 0 && runId.startsWith(max.slice(0, -1)) && max.slice(-1) > runId.charAt(max.length - 1));
    if (!minOk || !maxOk) return minOk ? { id: max, whole: stats?.is_max_value_exact === true } : { id: min, whole: stats?.is_min_value_exact === true };
  }
  return null;
}

/** The first value of a decoded run_id column that is not the run's id ({@link partDesign}), or null. */
function foreignInColumn(manifest: RunManifest, part: RunPart, ids: FlatStrings): { id: string; whole: boolean } | null {
  const d = partDesign(manifest, part.file);
  for (const id of ids.dictionary) if (d.runId(id) !== null) return { id: String(id), whole: true };
  return null;
}

/** Some columns of a checked part decoded flat ({@link decodeFlatColumns}), its error a {@link DamagedRunError}. */
function decodeFlat(manifest: RunManifest, part: RunPart, bytes: Uint8Array, footer: ReturnType<typeof checkFooter>, cols: readonly string[]): FlatPart | null {
  try {
    const columns = decodeFlatColumns(FLAT_LIB, bytes, footer, cols, SCRATCH);
    return columns === null ? null : Object.freeze({ rows: (part.record as PartRecord).rows, columns });
  } catch (err) {
    throw damagedPart(manifest, part, new Error(`the part ${part.file} cannot be read as parquet: ${(err as Error).message}`));
  }
}

/** Some columns of a part, decoded flat when it was read ({@link decodeFlatColumns}; `flat` null: declined). */
type Decoded = { readonly columns: readonly string[]; readonly flat: readonly (FlatColumn | null)[] | null };

/**
 * A part read, checked and decoded (`decoded`) by a reader that then dropped its bytes: the columns it
 * decoded are served from `decoded` (any of them, in any order); anything else asked of it reads the
 * part again, checked again ({@link loadPart}), and keeps those bytes for what is asked next.
 */
function openDecodedPart(manifest: RunManifest, part: RunPart, decoded: Decoded): OpenPart {
  let again: OpenPart | null = null;
  const reopened = (): OpenPart => (again ??= openCheckedPart(manifest, part, loadPartSync(manifest, part)));
  const at = (cols: readonly string[]): number[] | null => {
    const ks = cols.map((c) => decoded.columns.indexOf(c));
    return ks.every((k) => k >= 0) ? ks : null;
  };
  return Object.freeze({
    part,
    columns: async (cols: readonly string[]) => reopened().columns(cols),
    rows: async (cols?: readonly string[]) => reopened().rows(cols),
    flat: (cols: readonly string[]) => {
      const ks = at(cols);
      if (ks === null) return reopened().flat(cols);
      const flat = decoded.flat;
      // Declined as a whole (one of the columns is in a shape the decoder does not read): these columns
      // alone may be decodable; the part is read again for them.
      if (flat === null) return reopened().flat(cols);
      return Object.freeze({ rows: (part.record as PartRecord).rows, columns: ks.map((k) => flat[k] as FlatColumn | null) });
    },
  });
}

/** The calling thread's read buffer ({@link readFileInto}): a part is read, checked and decoded in one synchronous step. */
const READ: ReadBuffer = { bytes: new Uint8Array(0) };
const FS: FileFns = { openSync, fstatSync, readSync, closeSync } as unknown as FileFns;

/**
 * Opens a part for a reader that needs only `columns` decoded flat: reads it into the calling thread's
 * read buffer, checks its size and sha256 ({@link checkPartBytes}) and its footer, decodes `columns`
 * and drops the bytes (no buffer per part: {@link readFileInto}); whatever else is asked of the part
 * reads it again, checked again. A part without a record is opened as {@link openRunPart} opens it.
 *
 * @throws {@link DamagedRunError} as {@link openRunPart}.
 */
export async function openPartFlat(manifest: RunManifest, part: RunPart, columns: readonly string[]): Promise<OpenPart> {
  const r = part.record;
  if (r === null) return openRunPart(manifest, part);
  let got: { size: number; bytes: Uint8Array | null };
  try {
    got = readFileInto(FS, part.path, r.bytes, READ);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw unreadablePart(manifest, part, err.code ?? err.message);
  }
  const bytes = got.bytes;
  let flat: FlatPart | null;
  try {
    checkPartBytes(manifest, part, got.size, () => createHash('sha256').update(bytes as Uint8Array).digest('hex'));
    const view = bytes as Uint8Array;
    flat = decodeFlat(manifest, part, view, footerOfBytes(manifest, part, view), columns);
  } finally {
    releaseLarge(READ);
  }
  return designChecked(manifest, openDecodedPart(manifest, part, { columns: [...columns], flat: flat === null ? null : flat.columns }));
}

/** Rows as columns (for parts parsed row-wise). */
function columnsOfRows(rows: readonly Record<string, unknown>[], cols: readonly string[]): PartColumns {
  const present = cols.filter((c) => rows.length === 0 || c in (rows[0] as Record<string, unknown>));
  const out: Record<string, unknown[]> = {};
  for (const c of present) out[c] = rows.map((r) => r[c] ?? null);
  return { rows: rows.length, columns: out };
}

/**
 * Opens a part on the read thread (read-thread.ts): read, its size and sha256 checked, its footer
 * checked and `columns` decoded flat there, and its bytes dropped there (as {@link openPartFlat}
 * drops them); the size and sha256 checked again here by {@link checkPartBytes}, so that the part is
 * refused exactly as {@link openRunPart} refuses it.
 *
 * @returns the opened part, or null when the thread is not available (open it with openPartFlat).
 * @throws {@link DamagedRunError} as {@link openRunPart}.
 */
export async function openPartOnThread(manifest: RunManifest, part: RunPart, columns: readonly string[]): Promise<OpenPart | null> {
  const r = part.record;
  if (r === null) return null;
  // The thread does not see the footer's run_id statistics here: it decodes the column with the others
  // (one value in a dictionary), checked below as footerOfBytes checks a part read in this thread.
  const asked = columns.includes('run_id') ? [...columns] : [...columns, 'run_id'];
  const got = await readOnThread({ path: part.path, file: part.file, bytes: r.bytes, sha256: r.sha256, rows: r.rows, columns: asked });
  if (got === null) return null;
  if (got.unreadable !== undefined) throw unreadablePart(manifest, part, got.unreadable);
  checkPartBytes(manifest, part, got.size ?? -1, () => got.sha256 ?? '');
  const flat = got.flat ?? null;
  // Whose rows first, as footerOfBytes; then its schema (a column missing is named as such, not as the
  // decoder's error reading it). Declined (flat null): anything asked of the part reads it again here,
  // its footer checked then.
  const ids = flat?.[asked.indexOf('run_id')];
  const other = ids?.kind === 'strings' ? foreignInColumn(manifest, part, ids) : null;
  if (other !== null) throw copiedPart(manifest, part, other);
  if (got.schema !== undefined) checkSchema(manifest, part, got.schema);
  if (got.error !== undefined) throw damagedPart(manifest, part, new Error(`the part ${part.file} cannot be read as parquet: ${got.error}`));
  return designChecked(manifest, openDecodedPart(manifest, part, { columns: asked, flat }));
}

/**
 * How {@link eachOpenPart} reads: `flat`, the columns the caller will ask of every part flat (decoded as
 * the part is read; its bytes are not kept); `thread`, whether to use the read thread (default: by the
 * run's size).
 */
export type EachPartOptions = {
  readonly flat?: readonly string[];
  readonly thread?: boolean;
  /** Called when a part's read starts (its index), on either thread: tests check how far ahead the reads run. */
  readonly started?: (index: number) => void;
};

/** Parts a reader has on the read thread at once (the thread reads the next while this one travels back). */
const THREAD_DEPTH = 2;

/**
 * Opens a run's parts in order ({@link openRunPart}), one in hand at a time, the next one read from
 * disk (and its checksum checked) while `onPart` decodes this one. With `flat`, each part's `flat`
 * columns are decoded as it is read and its bytes dropped ({@link openPartFlat}): anything else asked
 * of it reads it again. With `flat` and a large run on a
 * machine with a core to spare (read-thread.ts, `useReadThread`), parts are also read on the read
 * thread ({@link openPartOnThread}):
 * it is kept {@link THREAD_DEPTH} parts ahead, and while the part whose turn it is is still there, the
 * next part not yet started is read here, so both threads read until the last part; `onPart` still
 * sees the parts in order. No read starts more than THREAD_DEPTH + 1 parts beyond the one `onPart` is
 * at (those read and not consumed are held in memory), and none after the loop has thrown.
 *
 * @param manifest - the run.
 * @param parts - its parts ({@link runParts}).
 * @param onPart - called with each opened part and its index, awaited before the next.
 * @param options - {@link EachPartOptions}.
 * @throws {@link DamagedRunError} as {@link openRunPart}.
 */
export async function eachOpenPart(manifest: RunManifest, parts: readonly RunPart[], onPart: (file: OpenPart, index: number) => Promise<void> | void, options: EachPartOptions = {}): Promise<void> {
  const flat = options.flat;
  const rows = parts.reduce((n, p) => n + (p.record?.rows ?? 0), 0);
  if (flat === undefined || !useReadThread(rows, options.thread)) return eachPartInline(manifest, parts, onPart, flat);
  const opened: (Promise<OpenPart> | undefined)[] = new Array<Promise<OpenPart> | undefined>(parts.length);
  // Per part: 1 once its read on the thread has come back (or failed).
  const back = new Uint8Array(parts.length);
  let next = 0;
  let onThread = 0;
  // The part `onPart` is at: no read starts more than THREAD_DEPTH + 1 parts beyond it (the parts read
  // and not yet consumed are held in memory), and none once the loop has ended or thrown.
  let at = 0;
  let stopped = false;
  const feed = (): void => {
    while (!stopped && onThread < THREAD_DEPTH && next < parts.length && next <= at + THREAD_DEPTH && parts[next]?.record != null) {
      const k = next++;
      const part = parts[k] as RunPart;
      options.started?.(k);
      onThread++;
      const p = openPartOnThread(manifest, part, flat)
        .then((open) => open ?? openPartFlat(manifest, part, flat))
        .finally(() => {
          back[k] = 1;
          onThread--;
          feed();
        });
      // A rejected read is awaited in its turn; until then it must not count as unhandled.
      p.catch(() => {});
      opened[k] = p;
    }
  };
  /** Starts reading the next part not yet started here (one at a time ahead of the thread's). */
  let ahead = -1;
  const readHere = (): void => {
    const k = next++;
    options.started?.(k);
    const p = openPartFlat(manifest, parts[k] as RunPart, flat);
    p.catch(() => {});
    opened[k] = p;
    ahead = k;
  };
  try {
    for (let k = 0; k < parts.length; k++) {
      at = k;
      feed();
      if (opened[k] === undefined) readHere();
      // While this part is still on the thread, this thread reads the next one not yet started.
      else if (back[k] === 0 && ahead < k && next < parts.length && next <= k + THREAD_DEPTH) readHere();
      const file = await (opened[k] as Promise<OpenPart>);
      opened[k] = undefined;
      await onPart(file, k);
    }
  } finally {
    stopped = true; // a damaged part or a throwing onPart: the parts after it are not read
  }
}

/** {@link eachOpenPart} in the calling thread alone. */
async function eachPartInline(manifest: RunManifest, parts: readonly RunPart[], onPart: (file: OpenPart, index: number) => Promise<void> | void, flat: readonly string[] | undefined): Promise<void> {
  const open = (part: RunPart): Promise<OpenPart> => (flat === undefined ? openRunPart(manifest, part) : openPartFlat(manifest, part, flat));
  let next: Promise<OpenPart> | null = parts.length > 0 ? open(parts[0]!) : null;
  // A rejected prefetch is awaited in the next round; until then it must not count as unhandled.
  next?.catch(() => {});
  for (let k = 0; k < parts.length; k++) {
    const file = await (next as Promise<OpenPart>);
    next = k + 1 < parts.length ? open(parts[k + 1]!) : null;
    next?.catch(() => {});
    await onPart(file, k);
  }
}
