import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { conditionsOf } from '../spec/conditions.js';
import { seedList } from '../spec/seed-list.js';
import type { SweepSpec } from '../spec/sweep-spec.js';
import type { TestMethod } from '../gate.js';
import { StoreError } from '../errors.js';
import { claimsDir, episodesDir, runDir, specPath } from './layout.js';
import { emptyCounts, type RunManifest, writeManifest } from './manifest.js';
import { gitState, hostName, moduleSha256, packageVersions } from './provenance.js';
import { claimFile, claimName } from './run-name.js';
import { listRuns, storeNotADirectory } from './list-runs.js';
import { lockRun, type RunLock } from './run-lock.js';
import { openRunWriter, partLimits, type PartLimits, type RunWriter } from './run-writer.js';
import { requireArgument } from 'poisson-core';

/** What a new run is made from. */
export type RunInit = {
  spec: SweepSpec;
  /** The spec's text as it was run; stored as spec.toml and hashed into `spec_sha256`. */
  specText: string;
  /** The target as given (`FILE:NAME`) or a function's name. */
  target: string;
  salt: string;
  maxMde: number;
  q?: number;
  power?: number;
  method?: TestMethod;
  /** The expected discordance the gate planned with (`--discordance`); recorded when given. */
  discordance?: number;
  /** Default 'local'. */
  backend?: string;
  /** The command line to record; default []. */
  command?: string[];
  /** The creation time (tests pin it); default now. */
  now?: Date;
  /** The directory whose git state is recorded; default process.cwd(). */
  cwd?: string;
  /** The target module's absolute path when known. */
  targetPath?: string | null;
  /** Rows per parquet part; default 10,000. */
  partRows?: number;
  /**
   * A part is also written once the rows buffered carry this many characters of `meta` and `error`
   * (so that memory is bounded by size, not only by rows); default 64 Mi (67,108,864).
   */
  partBytes?: number;
  /** Manifest fields recorded as given, after the others (sweep's `only`, `budget_tokens`, `backend_options`). */
  recorded?: Pick<RunManifest, 'only' | 'budget_tokens' | 'max_output_tokens' | 'refresh_cache' | 'backend_options' | 'import'>;
  /** What the run's name starts with instead of the spec's target_id (an import's `--name`); same rules as a target_id. */
  namePrefix?: string;
  /**
   * A directory inside the store (made by {@link stagingDir}) to make the run's directory in, instead of
   * the store: the run is invisible to `runs` there until the caller renames it into the store
   * ({@link publishRun}); its name is claimed in the store all the same. An import writes so, so that an
   * import stopped halfway leaves no run.
   */
  stageIn?: string;
  /**
   * The run's conditions, when it holds only some of the product of its axes (an import whose samples do
   * not fill the grid; imports only, with `recorded.import`: a RangeError otherwise): labels of {@link conditionsOf}(spec), each once, in the order given. The parts'
   * condition ranges index this list, so it is the manifest's from the start; default the whole product.
   */
  conditions?: readonly string[];
};

/**
 * The conditions a new run records: `init.conditions` when given, else the product of the spec's axes.
 *
 * @throws RangeError naming every label that is not a condition of the spec's axes, or is given twice.
 */
function runConditions(init: RunInit): string[] {
  const all = conditionsOf(init.spec).map((c) => c.label);
  if (init.conditions === undefined) return all;
  // Only an import's run may hold part of its grid: every read checks a sweep's conditions against the
  // product of its axes (a sweep's run of fewer conditions was written, and then called damaged).
  if (init.recorded?.import === undefined) throw new RangeError('createRun: conditions is for imported runs (recorded.import); a sweep holds every condition of its axes: narrow the axes instead.');
  const known = new Set(all);
  const seen = new Set<string>();
  const bad: string[] = [];
  for (const c of init.conditions) {
    if (!known.has(c)) bad.push(`${JSON.stringify(c)} is not a condition of the spec's axes`);
    else if (seen.has(c)) bad.push(`${JSON.stringify(c)} is given twice`);
    seen.add(c);
  }
  if (bad.length > 0) throw new RangeError(`createRun: conditions: ${bad.join('; ')}.`);
  return [...init.conditions];
}

/** `YYYYMMDDTHHMMSSZ-xxxx` for a time (UTC) and 4 random hex digits. */
function newRunId(now: Date): string {
  const iso = now.toISOString(); // 2026-11-06T23:13:18.123Z
  const stamp = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}

/** sha256 hex of a text (UTF-8). */
export function sha256Hex(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Creates a run in the store: claims its name (`<target_id> <YYYY-MM-DD> <letter>`, atomically), makes
 * `<store>/<run_id>/` with spec.toml, episodes/ and run.json (status `running`), and returns a writer.
 *
 * The seeds recorded are seedFor(salt, r) for r = 0..replicates-1. The power gate is the caller's
 * (sweep's) business and runs before this.
 *
 * @param store - the store directory (created when missing).
 * @param init - {@link RunInit}.
 * @returns a {@link RunWriter} whose `manifest` is the new run's.
 * The new run's lock ({@link lockRun}) is taken before anything is written in its directory and is held
 * by the writer until `close`.
 *
 * @throws {@link StoreError} when the store path is not a directory; RangeError listing every bad `partRows`
 *   and `partBytes`, and one naming every label of `conditions` that is not a condition of the spec's
 *   axes or is given twice (nothing is written).
 * @example
 * ```ts
 * const w = await createRun('store', { spec, specText, target: 'targets.mjs:coin', salt: 's', maxMde: 0.99 });
 * await w.append(rows); await w.close('complete');
 * ```
 * @see PROVE.md, "The store".
 */
export async function createRun(store: string, init: RunInit): Promise<RunWriter> {
  requireArgument('createRun', 'store', store, 'string', 'the store directory');
  requireArgument('createRun', 'init', init, 'object');
  const limits = partLimits(init); // checked before anything is written
  const conditions = runConditions(init); // likewise
  await ensureStore(store);
  const home = init.stageIn ?? store;
  const now = init.now ?? new Date();
  let runId = newRunId(now);
  for (let tries = 0; ; tries++) {
    try {
      // A staged run's id must be free in the store too, where it will be renamed to.
      if (home !== store && (await stat(runDir(store, runId)).catch(() => null)) !== null) throw Object.assign(new Error('taken'), { code: 'EEXIST' });
      await mkdir(runDir(home, runId));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || tries > 100) throw err;
      runId = newRunId(now);
    }
  }
  // A run this call could not finish creating (a full disk, a file system that refuses a write) is removed:
  // no episode was written into it. Until the fifth session of 2026-12-07 its directory stayed, listed as a
  // run that never started, holding a lock's temporary file or a spec.toml (a review).
  const unmake = (): Promise<void> => rm(runDir(home, runId), { recursive: true, force: true }).catch(() => undefined);
  let lock: RunLock;
  try {
    lock = await lockRun(home, runId);
  } catch (err) {
    await unmake();
    throw err;
  }
  try {
    return await populate(store, home, init, runId, now, lock, limits, conditions);
  } catch (err) {
    await unmake();
    await lock.release();
    throw err;
  }
}

/**
 * Makes the store directory when missing (internal to the writers).
 *
 * @throws {@link StoreError} when the store path is not a directory or cannot be created.
 */
export async function ensureStore(store: string): Promise<void> {
  const before = await stat(store).catch(() => null);
  if (before !== null && !before.isDirectory()) throw storeNotADirectory(store);
  await mkdir(store, { recursive: true }).catch((err: NodeJS.ErrnoException) => {
    throw new StoreError(`the store ${store} cannot be created (${err.code ?? err.message}); pass --store with a writable directory.`);
  });
  const st = await stat(store);
  if (!st.isDirectory()) throw storeNotADirectory(store);
}

/**
 * A new staging directory in the store (`<store>/.staging-XXXXXX`), for {@link RunInit.stageIn}: its name
 * is not a run id, so `runs` and `verify` never read it as a run. Its `owner.json` names this process
 * (pid, host), so that `gc` removes it once that process is gone (killed before it could remove it).
 */
export async function stagingDir(store: string): Promise<string> {
  await ensureStore(store);
  const dir = await mkdtemp(join(store, STAGING_PREFIX));
  await writeFile(join(dir, 'owner.json'), `${JSON.stringify({ pid: process.pid, host: hostName() })}\n`);
  return dir;
}

/** What a staging directory's name starts with ({@link stagingDir}). */
export const STAGING_PREFIX = '.staging-';

/** Moves a closed run written under {@link RunInit.stageIn} into the store, in one rename. */
export async function publishRun(store: string, stageIn: string, runId: string): Promise<void> {
  await rename(runDir(stageIn, runId), runDir(store, runId));
}

/** Gives back a name claimed for a run that was never published (its claim file, when it still names the run). */
export async function releaseName(store: string, name: string, runId: string): Promise<void> {
  const file = join(claimsDir(store), claimFile(name));
  const held = await readFile(file, 'utf8').catch(() => null);
  if (held === `${runId}\n`) await unlink(file).catch(() => undefined);
}

async function populate(store: string, home: string, init: RunInit, runId: string, now: Date, lock: RunLock, limits: PartLimits, conditions: string[]): Promise<RunWriter> {
  const spec = init.spec;
  const taken = new Set((await listRuns(store)).map((r) => r.name));
  const name = await claimName(store, init.namePrefix ?? spec.target_id, now.toISOString().slice(0, 10), runId, taken);
  const cwd = init.cwd ?? process.cwd();
  const manifest: RunManifest = {
    run_id: runId,
    name,
    status: 'running',
    backend: init.backend ?? 'local',
    target: init.target,
    target_id: spec.target_id,
    t_unit: spec.t_unit,
    replicates: spec.replicates,
    axes: JSON.parse(JSON.stringify(spec.axes)) as RunManifest['axes'],
    conditions,
    salt: init.salt,
    // Frozen (the list seedList made): the manifest's text keeps its rendering between rewrites (manifestText).
    seeds: seedList(init.salt, spec.replicates) as number[],
    max_mde: init.maxMde,
    q: init.q ?? 0.05,
    power: init.power ?? 0.8,
    method: init.method ?? 'exact',
    ...(init.discordance !== undefined ? { discordance: init.discordance } : {}),
    ...(spec.events !== undefined ? { events: [...spec.events] } : {}),
    created: now.toISOString(),
    finished: null,
    counts: emptyCounts(),
    spec_sha256: sha256Hex(init.specText),
    registration_sha256: null,
    provenance: {
      command: [...(init.command ?? [])],
      cwd,
      git: await gitState(cwd),
      node: process.version,
      packages: packageVersions(),
      host: hostName(),
      pid: process.pid,
      target_path: init.targetPath ?? null,
      target_sha256: await moduleSha256(init.targetPath ?? null),
    },
    extensions: [],
    resumes: [],
    parts: [],
    ...init.recorded,
  };
  try {
    await writeFile(specPath(home, runId), init.specText);
    await mkdir(episodesDir(home, runId));
    await writeManifest(home, manifest);
    return openRunWriter(home, manifest, { nextPart: 0, lock, limits });
  } catch (err) {
    // The run is removed (createRun): its name is given back.
    await releaseName(store, name, runId);
    throw err;
  }
}
