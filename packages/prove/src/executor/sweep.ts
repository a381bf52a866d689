import { randomBytes } from 'node:crypto';
import TOML from '@iarna/toml';
import { assertGate, powerGate, type GateInput, type GateResult, type TestMethod } from '../gate.js';
import { conditionsOf } from '../spec/conditions.js';
import { seedFor } from '../spec/seed-for.js';
import { parseSweepSpec, type SweepSpec } from '../spec/sweep-spec.js';
import { createRun } from '../store/create-run.js';
import type { RunManifest } from '../store/manifest.js';
import type { PriceTable } from '../target/price-table.js';
import type { Target } from '../target/target.js';
import { checkCallBudget, planTargetCalls, type CallPlan } from './call-plan.js';
import { assertNotAborted, checkExecOptions, execute, pickBackend, targetSource, workItems } from './execute.js';
import { narrowSpec, type OnlySelection } from './narrow-spec.js';
import { startTarget } from './target-hooks.js';
import { runtimeOf, type RunOptions } from './runtime.js';

/** Options of {@link sweep} and {@link planSweep}. */
export type SweepOptions = RunOptions & {
  /** Narrow the spec's axes to these values (`--only AXIS=V1,V2`); recorded in the manifest's `only`. */
  only?: OnlySelection;
  /** Prices for the plan's cost ({@link planSweep} only). */
  prices?: PriceTable;
  /** The spec: TOML text, or a parsed {@link SweepSpec}. */
  spec: string | SweepSpec;
  /** The spec's text to store and hash when `spec` is parsed (default: the spec written back as TOML). */
  specText?: string;
  /** `FILE:NAME` (a module and its export; FILE relative to `cwd`) or the target function itself. */
  target: string | Target;
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
  /**
   * The expected discordance, the share of pairs whose outcomes will disagree between two runs (a target
   * sampled at temperature > 0), in [0, 1]: the power gate plans with it and the manifest records it.
   * Absent, the gate assumes seeds that never disagree (the one-way model) and says so.
   */
  discordance?: number;
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
  /** The planned call matrix, for targets with a `plan` hook; else null. */
  readonly calls: CallPlan | null;
  /** The `--only` narrowing, or null. */
  readonly only: Record<string, Array<string | number>> | null;
  /** The token budget, or null. */
  readonly budget_tokens: number | null;
};

function specOf(opts: SweepOptions): { spec: SweepSpec; text: string; only: Record<string, Array<string | number>> | null } {
  let spec: SweepSpec;
  let text: string;
  if (typeof opts.spec === 'string') {
    spec = parseSweepSpec(opts.spec);
    text = opts.spec;
  } else {
    if (opts.spec === null || typeof opts.spec !== 'object') throw new TypeError(`sweep: spec must be TOML text or a SweepSpec, got ${String(opts.spec)}`);
    text = opts.specText ?? TOML.stringify(opts.spec as unknown as TOML.JsonMap);
    spec = parseSweepSpec(text);
  }
  if (opts.only === undefined || Object.keys(opts.only).length === 0) return { spec, text, only: null };
  // The stored spec.toml and spec_sha256 stay the full spec's; the manifest's axes and `only` say what ran.
  const narrowed = narrowSpec(spec, opts.only);
  return { spec: narrowed.spec, text, only: narrowed.only };
}

function checkMaxMde(maxMde: unknown): number {
  if (typeof maxMde !== 'number' || !(maxMde > 0 && maxMde <= 1)) {
    throw new RangeError(`maxMde is required, a number in (0, 1] (the largest change the sweep must be able to show), got ${String(maxMde)}`);
  }
  return maxMde;
}

/** The power gate's input for a spec: m = conditions x declared events, at the expected discordance if given. */
export function gateInput(spec: SweepSpec, conditions: number, maxMde: number, opts: Pick<SweepOptions, 'q' | 'power' | 'method' | 'discordance'>): GateInput {
  return {
    conditions,
    replicates: spec.replicates,
    maxMde,
    ...(spec.events !== undefined ? { events: spec.events.length } : {}),
    ...(opts.discordance !== undefined ? { discordance: opts.discordance } : {}),
    ...(opts.q !== undefined ? { q: opts.q } : {}),
    ...(opts.power !== undefined ? { power: opts.power } : {}),
    ...(opts.method !== undefined ? { method: opts.method } : {}),
  };
}

/** A fresh salt: 16 random hex digits. */
export function randomSalt(): string {
  return randomBytes(8).toString('hex');
}

/**
 * The plan of a sweep without running or writing anything: conditions, replicates, seeds, episodes, the
 * power gate's figures (whether or not it passes) and, when the target has `estimate`, calls and tokens;
 * when it has a `plan` hook, the call matrix (`calls`, after `configure` with `dryRun: true`; with
 * `prices`, its cost). `only` narrows the spec first (the gate is the narrowed design's).
 *
 * @param opts - as {@link sweep}; `store` is not touched.
 * @returns the {@link SweepPlan}.
 * @throws {@link SpecError}, {@link TargetError}, RangeError as {@link sweep} does (but not GateError).
 * @see PROVE.md, "The power gate" (`--dry-run`).
 */
export async function planSweep(opts: SweepOptions): Promise<SweepPlan> {
  const { spec, only } = specOf(opts);
  const maxMde = checkMaxMde(opts.maxMde);
  const conditions = conditionsOf(spec);
  const gate = powerGate(gateInput(spec, conditions.length, maxMde, opts));
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
  let calls: CallPlan | null = null;
  if (fn && typeof fn.plan === 'function') {
    await startTarget(fn, runtimeOf(opts, opts.store, opts.budgetTokens ?? null, true), undefined, undefined);
    calls = await planTargetCalls(fn, workItems(conditions, 0, spec.replicates, seeds), opts.prices);
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
    calls,
    only,
    budget_tokens: opts.budgetTokens ?? null,
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
 * With `only`, the spec's axes are narrowed first and the manifest records `only`. With `budgetTokens`
 * and a target with a `plan` hook, a plan that may bill more is refused (ProveError `E_BUDGET`) before
 * anything is written; the target is then configured with the budget, and when its `signal` aborts the
 * run ends `interrupted`. The target's `usage()` goes into the manifest's `usage`.
 *
 * @throws {@link SpecError}, {@link GateError}, {@link TargetError}, ProveError `E_ONLY` / `E_BUDGET`,
 *   `E_ABORTED` (the signal aborted before the run was created), RangeError/TypeError for bad options:
 *   all before anything is written. When `onCreated` throws, the run is closed `failed` and the error
 *   rethrown.
 * @example
 * ```ts
 * const run = await sweep({ spec: text, target: './targets.mjs:coin', store: 'store', salt: '0123456789abcdef', maxMde: 0.99 });
 * run.status; // 'complete'
 * ```
 * @see PROVE.md, "The executor".
 */
export async function sweep(opts: SweepOptions): Promise<RunManifest> {
  checkExecOptions(opts);
  if (opts.onCreated !== undefined && typeof opts.onCreated !== 'function') throw new TypeError(`onCreated must be a function, got ${typeof opts.onCreated}`);
  const { spec, text, only } = specOf(opts);
  const maxMde = checkMaxMde(opts.maxMde);
  const conditions = conditionsOf(spec);
  const q = opts.q ?? 0.05;
  const power = opts.power ?? 0.8;
  const method = opts.method ?? 'exact';
  assertGate(gateInput(spec, conditions.length, maxMde, opts));
  const cwd = opts.cwd ?? process.cwd();
  const backend = pickBackend(opts.backend, cwd);
  const { source, label, path, fn } = await targetSource(opts.target, cwd, backend);
  const salt = opts.salt ?? randomSalt();
  if (typeof salt !== 'string' || salt === '') throw new RangeError(`salt must be a non-empty string, got ${JSON.stringify(salt)}`);
  const budget = opts.budgetTokens ?? null;
  if (budget !== null && fn && typeof fn.plan === 'function') {
    // Refuse a plan over the budget before anything is written.
    await startTarget(fn, runtimeOf(opts, opts.store, budget, true), undefined, undefined);
    const seeds = Array.from({ length: spec.replicates }, (_, r) => seedFor(salt, r));
    const plan = await planTargetCalls(fn, workItems(conditions, 0, spec.replicates, seeds));
    if (plan) checkCallBudget(plan, budget);
  }
  const runtime = runtimeOf(opts, opts.store, budget, false);
  assertNotAborted(opts.signal, 'the sweep');
  const writer = await createRun(opts.store, {
    spec,
    specText: text,
    target: label,
    salt,
    maxMde,
    q,
    power,
    method,
    ...(opts.discordance !== undefined ? { discordance: opts.discordance } : {}),
    backend: backend.name,
    command: opts.command,
    now: opts.now,
    cwd,
    targetPath: path,
    partRows: opts.partRows,
    partBytes: opts.partBytes,
    recorded:
      only !== null || budget !== null || backend.options !== undefined
        ? { only, budget_tokens: budget, ...(backend.options !== undefined ? { backend_options: { ...backend.options } } : {}) }
        : undefined,
  });
  try {
    opts.onCreated?.(writer.manifest);
  } catch (err) {
    // The run exists: it is not left `running` (and its lock is released).
    await writer.close('failed').catch(() => undefined);
    throw err;
  }
  const total = conditions.length * spec.replicates;
  return execute(writer, workItems(conditions, 0, spec.replicates, writer.manifest.seeds), total, backend, source, { ...opts, runtime });
}
