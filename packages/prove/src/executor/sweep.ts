import { randomBytes } from 'node:crypto';
import TOML from '@iarna/toml';
import { assertGate, powerGate, type GateResult, type TestMethod } from '../gate.js';
import { conditionsOf } from '../spec/conditions.js';
import { seedFor } from '../spec/seed-for.js';
import { parseSweepSpec, type SweepSpec } from '../spec/sweep-spec.js';
import { createRun } from '../store/create-run.js';
import type { RunManifest } from '../store/manifest.js';
import type { Target } from '../target/target.js';
import { execute, pickBackend, targetSource, workItems, type BackendChoice, type SweepProgress } from './execute.js';

/** Options of {@link sweep} and {@link planSweep}. */
export type SweepOptions = {
  /** The spec: TOML text, or a parsed {@link SweepSpec}. */
  spec: string | SweepSpec;
  /** The spec's text to store and hash when `spec` is parsed (default: the spec written back as TOML). */
  specText?: string;
  /** `FILE:NAME` (a module and its export; FILE relative to `cwd`) or the target function itself. */
  target: string | Target;
  store: string;
  /** The seeds' salt; default 16 random hex digits (recorded either way). */
  salt?: string;
  /** The largest change the sweep must be able to show (the power gate's threshold), in (0, 1]. */
  maxMde: number;
  /** False discovery rate for the gate and the diff; default 0.05. */
  q?: number;
  /** Default 0.8. */
  power?: number;
  /** Default 'exact'. */
  method?: TestMethod;
  /** Default 'local'. 'threads' needs the target as FILE:NAME. */
  backend?: BackendChoice;
  /** Episodes in flight (local) or worker threads (threads); default 1. */
  concurrency?: number;
  /** Per-episode time limit in milliseconds; default none. */
  timeoutMs?: number | null;
  onProgress?: (p: SweepProgress) => void;
  /** Aborting it stops the sweep after the episodes in flight; the run is then `interrupted`. */
  signal?: AbortSignal;
  /** Rows per parquet part; default 10,000. */
  partRows?: number;
  /** The command line recorded in the manifest. */
  command?: string[];
  /** Where FILE is resolved and git state is read; default process.cwd(). */
  cwd?: string;
  /** The run's creation time (tests); default now. */
  now?: Date;
  /** Called once the run exists in the store, before any episode runs. */
  onCreated?: (manifest: RunManifest) => void;
};

/** What a sweep would do ({@link planSweep}): nothing is written to make it. */
export type SweepPlan = {
  readonly target: string;
  readonly target_id: string;
  readonly conditions: readonly string[];
  readonly replicates: number;
  readonly salt: string;
  readonly seeds: readonly number[];
  readonly episodes: number;
  readonly gate: GateResult;
  /** Model calls and tokens summed over the episodes, for targets with `estimate`; else null. */
  readonly estimate: { readonly calls: number; readonly tokens: number } | null;
};

function specOf(opts: SweepOptions): { spec: SweepSpec; text: string } {
  if (typeof opts.spec === 'string') return { spec: parseSweepSpec(opts.spec), text: opts.spec };
  if (opts.spec === null || typeof opts.spec !== 'object') throw new TypeError(`sweep: spec must be TOML text or a SweepSpec, got ${String(opts.spec)}`);
  const text = opts.specText ?? TOML.stringify(opts.spec as unknown as TOML.JsonMap);
  return { spec: parseSweepSpec(text), text };
}

function checkMaxMde(maxMde: unknown): number {
  if (typeof maxMde !== 'number' || !(maxMde > 0 && maxMde <= 1)) {
    throw new RangeError(`maxMde is required, a number in (0, 1] (the largest change the sweep must be able to show), got ${String(maxMde)}`);
  }
  return maxMde;
}

/** A fresh salt: 16 random hex digits. */
export function randomSalt(): string {
  return randomBytes(8).toString('hex');
}

/**
 * The plan of a sweep without running or writing anything: conditions, replicates, seeds, episodes, the
 * power gate's figures (whether or not it passes) and, when the target has `estimate`, calls and tokens.
 *
 * @param opts - as {@link sweep}; `store` is not touched.
 * @returns the {@link SweepPlan}.
 * @throws {@link SpecError}, {@link TargetError}, RangeError as {@link sweep} does (but not GateError).
 * @see PROVE.md, "The power gate" (`--dry-run`).
 */
export async function planSweep(opts: SweepOptions): Promise<SweepPlan> {
  const { spec } = specOf(opts);
  const maxMde = checkMaxMde(opts.maxMde);
  const conditions = conditionsOf(spec);
  const gate = powerGate({ conditions: conditions.length, replicates: spec.replicates, maxMde, q: opts.q, power: opts.power, method: opts.method });
  const salt = opts.salt ?? randomSalt();
  const seeds = Array.from({ length: spec.replicates }, (_, r) => seedFor(salt, r));
  const cwd = opts.cwd ?? process.cwd();
  const backend = pickBackend(opts.backend, cwd);
  const { label, fn } = await targetSource(opts.target, cwd, backend);
  let estimate: SweepPlan['estimate'] = null;
  if (fn && typeof fn.estimate === 'function') {
    let calls = 0;
    let tokens = 0;
    for (const item of workItems(conditions, 0, spec.replicates, seeds)) {
      const e = fn.estimate({ ...item.values, seed: item.seed, replicate_index: item.replicate_index });
      calls += e.calls ?? 0;
      tokens += e.tokens ?? 0;
    }
    estimate = Object.freeze({ calls, tokens });
  }
  return Object.freeze({
    target: label,
    target_id: spec.target_id,
    conditions: Object.freeze(conditions.map((c) => c.label)),
    replicates: spec.replicates,
    salt,
    seeds: Object.freeze(seeds),
    episodes: conditions.length * spec.replicates,
    gate,
    estimate,
  });
}

/**
 * Sweeps a target over a spec's conditions x replicates into a new run of the store.
 *
 * Order: parse the spec, run the power gate (m = conditions, alpha = q/m, n = replicates; refuse when
 * MDE(n, alpha, power) > maxMde), load the target — all before anything is written — then create the
 * run, run every (condition, replicate) with seed = seedFor(salt, r) on the backend, stream rows into
 * parquet parts, and close the run `complete` (or `interrupted` when the signal aborted, `failed` when
 * the backend or the store failed).
 *
 * @param opts - {@link SweepOptions}.
 * @returns the run's final manifest.
 * @throws {@link SpecError}, {@link GateError}, {@link TargetError} before anything is written;
 *   RangeError/TypeError for bad options.
 * @example
 * ```ts
 * const run = await sweep({ spec: text, target: './targets.mjs:coin', store: 'store', salt: '0123456789abcdef', maxMde: 0.99 });
 * run.status; // 'complete'
 * ```
 * @see PROVE.md, "The executor".
 */
export async function sweep(opts: SweepOptions): Promise<RunManifest> {
  const { spec, text } = specOf(opts);
  const maxMde = checkMaxMde(opts.maxMde);
  const conditions = conditionsOf(spec);
  const q = opts.q ?? 0.05;
  const power = opts.power ?? 0.8;
  const method = opts.method ?? 'exact';
  assertGate({ conditions: conditions.length, replicates: spec.replicates, maxMde, q, power, method });
  const cwd = opts.cwd ?? process.cwd();
  const backend = pickBackend(opts.backend, cwd);
  const { source, label, path } = await targetSource(opts.target, cwd, backend);
  const salt = opts.salt ?? randomSalt();
  if (typeof salt !== 'string' || salt === '') throw new RangeError(`salt must be a non-empty string, got ${JSON.stringify(salt)}`);
  const writer = await createRun(opts.store, {
    spec,
    specText: text,
    target: label,
    salt,
    maxMde,
    q,
    power,
    method,
    backend: backend.name,
    command: opts.command,
    now: opts.now,
    cwd,
    targetPath: path,
    partRows: opts.partRows,
  });
  opts.onCreated?.(writer.manifest);
  const total = conditions.length * spec.replicates;
  return execute(writer, workItems(conditions, 0, spec.replicates, writer.manifest.seeds), total, backend, source, opts);
}
