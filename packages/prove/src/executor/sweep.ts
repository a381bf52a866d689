import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import TOML from '@iarna/toml';
import { powerGate, refuseGate, type GateInput, type GateResult, type TestMethod } from '../gate.js';
import { conditionsOf } from '../spec/conditions.js';
import { seedList } from '../spec/seed-list.js';
import { parseSweepSpec, type SweepSpec } from '../spec/sweep-spec.js';
import { createRun } from '../store/create-run.js';
import { readManifest, type RunManifest } from '../store/manifest.js';
import { runDir } from '../store/layout.js';
import { TargetError } from '../errors.js';
import { prefetchGitState } from '../store/provenance.js';
import type { PriceTable } from '../target/price-table.js';
import type { Target } from '../target/target.js';
import { checkCallBudget, planTargetCalls, type CallPlan } from './call-plan.js';
import { assertNotAborted, checkExecOptions, execute, pickBackend, targetSource, workItems } from './execute.js';
import { defaultExecution } from './default-execution.js';
import { narrowSpec, type OnlySelection } from './narrow-spec.js';
import { assertTargetTakesRunOptions, checkConditions, configureForRun, configureTarget } from './target-hooks.js';
import { runtimeOf, type RunOptions } from './runtime.js';
import type { Backend, RuntimeInit, TargetSource } from './backend.js';
import { targetConfig } from './run-episode.js';
import { requireArgument } from 'poisson-core';

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

/** Options of {@link planSweep}: a sweep's, and whether the plan is for a dry run. */
export type PlanSweepOptions = SweepOptions & {
  /**
   * A plan to look at only (`sweep --dry-run`): the target is configured with `dryRun: true` and the
   * plan cannot be run ({@link runSweep} refuses it). Default false: the target is configured for the
   * run.
   */
  dryRun?: boolean;
};

/** What {@link runSweep} needs besides the printed plan: kept out of the plan object (its JSON is pinned). */
type Prepared = {
  readonly opts: PlanSweepOptions;
  readonly spec: SweepSpec;
  readonly text: string;
  readonly only: Record<string, Array<string | number>> | null;
  readonly maxMde: number;
  readonly conditions: ReturnType<typeof conditionsOf>;
  readonly backend: Backend;
  /** The concurrency the defaults chose, when neither backend nor concurrency was named. */
  readonly concurrency: number | undefined;
  readonly source: TargetSource;
  readonly path: string | null;
  readonly runtime: RuntimeInit;
  /** What the target's own stop aborts, when it was configured for the run here. */
  readonly targetStop: AbortController | undefined;
  /** The directory the target was resolved against: the run's provenance (git state) is read there too. */
  readonly cwd: string;
  ran: boolean;
};

/** The plans {@link planSweep} made in this process and what running each needs. */
const prepared = new WeakMap<SweepPlan, Prepared>();

/**
 * Everything a sweep does before it writes, once: parse the spec, compute the gate (with `refuse`,
 * throw when it does not pass, before the target is loaded), load the target, configure it once,
 * ask `check` once per condition, then `estimate` and `plan` once per episode (with `refuse`: `plan`
 * only for a budget, which it then checks; no `estimate`).
 */
async function prepare(opts: PlanSweepOptions, refuse: boolean): Promise<SweepPlan> {
  checkExecOptions(opts, refuse ? 'sweep' : 'planSweep');
  if (opts.onCreated !== undefined && typeof opts.onCreated !== 'function') throw new TypeError(`onCreated must be a function, got ${typeof opts.onCreated}`);
  const { spec, text, only } = specOf(opts);
  const maxMde = checkMaxMde(opts.maxMde);
  const conditions = conditionsOf(spec);
  const gate = powerGate(gateInput(spec, conditions.length, maxMde, opts));
  if (refuse) refuseGate(gate);
  const cwd = opts.cwd ?? process.cwd();
  // The run records the work tree's git state: asked now, its two git processes run while the target
  // loads (a sweep waited 10 to 35 ms for them after it; store/provenance.ts).
  if (opts.dryRun !== true && gate.passes) void prefetchGitState(cwd);
  // Neither backend nor concurrency named: the faster on this machine (defaultExecution says how it decides).
  const auto =
    opts.backend === undefined && opts.concurrency === undefined
      ? defaultExecution({ cores: availableParallelism(), episodes: conditions.length * spec.replicates, moduleTarget: typeof opts.target === 'string', budget: opts.budgetTokens != null })
      : null;
  const backend = pickBackend(opts.backend ?? auto?.backend, cwd);
  const { source, label, path, fn } = await targetSource(opts.target, cwd, backend);
  assertTargetTakesRunOptions(fn, label, opts);
  const salt = opts.salt ?? randomSalt();
  if (typeof salt !== 'string' || salt === '') throw new RangeError(`salt must be a non-empty string, got ${JSON.stringify(salt)}`);
  const seeds = seedList(salt, spec.replicates);
  const budget = opts.budgetTokens ?? null;
  const dryRun = opts.dryRun === true;
  // The local backend runs the episodes on this very copy: it is configured for the run, here, once.
  // Other backends configure their own copies (each worker thread or process); this one only plans. A
  // plan the gate refuses can never run: its target is configured for planning only.
  const runsHere = backend.name === 'local' && !dryRun && gate.passes;
  // sweep() asks `plan` only to check a budget, and never `estimate`.
  const asksPlan = !refuse || budget !== null;
  // The wall-clock time the refresh begins: cache entries written from now on are this run's answers.
  const runtime = runtimeOf(opts, opts.store, budget, false, opts.refreshCache === true ? new Date().toISOString() : null);
  let targetStop: AbortController | undefined;
  if (fn && runsHere) {
    // Configured first, so that `check`, `estimate` and `plan` see the run's output cap.
    targetStop = await configureForRun(fn, runtime, opts.signal);
  } else if (fn && (!refuse || (asksPlan && typeof fn.plan === 'function'))) {
    // A copy that runs no episode is configured only to be asked `estimate` / `plan`, for planning only.
    await configureTarget(fn, { ...runtime, dryRun: true }, undefined);
  }
  checkConditions(fn, conditions, seeds[0] ?? 0);
  let estimate: SweepPlan['estimate'] = null;
  if (!refuse && fn && typeof fn.estimate === 'function') {
    let calls = 0;
    let tokens = 0;
    for (const item of workItems(conditions, 0, spec.replicates, seeds)) {
      const e = fn.estimate(targetConfig(item));
      calls += e.calls ?? 0;
      tokens += e.tokens ?? 0;
    }
    estimate = Object.freeze({ calls, tokens });
  }
  let calls: CallPlan | null = null;
  if (fn && typeof fn.plan === 'function' && asksPlan) {
    calls = await planTargetCalls(fn, workItems(conditions, 0, spec.replicates, seeds), refuse ? undefined : opts.prices);
    // Refuse a plan over the budget before anything is written.
    if (refuse && calls && budget !== null) checkCallBudget(calls, budget);
  }
  const plan: SweepPlan = Object.freeze({
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
    budget_tokens: budget,
  });
  prepared.set(plan, {
    opts,
    spec,
    text,
    only,
    maxMde,
    conditions,
    backend,
    concurrency: auto?.concurrency,
    source: runsHere ? { ...source, configured: true } : source,
    path,
    runtime,
    targetStop,
    cwd,
    ran: false,
  });
  return plan;
}

/**
 * The plan of a sweep, made once, without writing anything: conditions, replicates, seeds, episodes,
 * the power gate's figures (whether or not it passes) and, when the target has `estimate`, calls and
 * tokens; when it has a `plan` hook, the call matrix (`calls`; with `prices`, its cost). `only` narrows
 * the spec first (the gate is the narrowed design's). {@link runSweep} runs it.
 *
 * The target is loaded and its hooks are called once each in this process: `configure` once (before
 * the others), `check` once per condition, `estimate` and `plan` once per episode. On the local backend
 * `configure` is the run's (`dryRun: false`, the budget, the run's signal) and the episodes run on this
 * copy without configuring it again; with `dryRun`, or on another backend (worker threads, bullmq,
 * whose workers configure their own copies), this copy is configured with `dryRun: true`, for planning
 * only.
 *
 * The returned object is plain, frozen data (printed as is by `sweep --dry-run --json`); what running it
 * needs (the parsed spec, the loaded and configured target, the backend) is held for it in this process.
 *
 * @param opts - as {@link sweep}, and `dryRun`; `store` is not touched.
 * @returns the {@link SweepPlan}.
 * @throws {@link SpecError}, {@link TargetError}, ProveError `E_ONLY` / `E_CHECK`, RangeError/TypeError
 *   as {@link sweep} does (but not GateError or `E_BUDGET`: the plan shows what they would refuse).
 * @example
 * ```ts
 * const plan = await planSweep({ spec: text, target: './targets.mjs:coin', store: 'store', maxMde: 0.99 });
 * plan.gate.passes; // true
 * (await runSweep(plan)).status; // 'complete'
 * ```
 * @see PROVE.md, "The power gate" (`--dry-run`).
 */
export async function planSweep(opts: PlanSweepOptions): Promise<SweepPlan> {
  requireArgument('planSweep', 'opts', opts, 'object', 'an object with store, spec and target');
  return prepare(opts, false);
}

/** What {@link runSweep} may add to a plan's options: observers only (the run's set-up is the plan's). */
export type RunSweepOptions = Pick<SweepOptions, 'onProgress' | 'onCreated'>;

/**
 * Runs a plan {@link planSweep} made, once: refuses it when its gate does not pass or its call plan
 * may bill more than its `budgetTokens` (nothing is written; nothing is computed again), then creates
 * the run, runs every (condition, replicate) on the plan's backend with the plan's target (on the local
 * backend, as configured while planning: `configure` is not called again) and closes the run as
 * {@link sweep} does.
 *
 * @param plan - a plan {@link planSweep} returned in this process, not made with `dryRun` and not run yet.
 * @param observers - `onProgress` / `onCreated`, replacing the plan's.
 * @returns the run's final manifest.
 * @throws {@link GateError}, ProveError `E_BUDGET`, `E_ABORTED`, before anything is written; TypeError
 *   for a plan that did not come from planSweep, was made with `dryRun`, or has run already.
 * @example
 * ```ts
 * const plan = await planSweep({ spec: text, target: './targets.mjs:coin', store: 'store', maxMde: 0.99 });
 * const run = await runSweep(plan, { onProgress: (p) => bar.update(p) });
 * run.seeds; // plan.seeds
 * ```
 * @see PROVE.md, "The executor".
 */
export async function runSweep(plan: SweepPlan, observers: RunSweepOptions = {}): Promise<RunManifest> {
  const p = typeof plan === 'object' && plan !== null ? prepared.get(plan) : undefined;
  if (p === undefined) throw new TypeError('runSweep runs a plan that planSweep returned in this process; make one with planSweep (a copy or a parsed JSON plan carries no target).');
  if (p.opts.dryRun === true) throw new TypeError('runSweep: the plan was made with dryRun: true (its target is configured for planning only); make it again without dryRun to run it.');
  if (p.ran) throw new TypeError('runSweep: the plan has run already (a plan is run once); make a new plan with planSweep for another run.');
  const opts: SweepOptions = { ...p.opts, ...observers, cwd: p.cwd };
  checkExecOptions(opts, 'runSweep');
  if (opts.onCreated !== undefined && typeof opts.onCreated !== 'function') throw new TypeError(`onCreated must be a function, got ${typeof opts.onCreated}`);
  refuseGate(plan.gate);
  if (plan.calls !== null && plan.budget_tokens !== null) checkCallBudget(plan.calls, plan.budget_tokens);
  assertNotAborted(opts.signal, 'the sweep');
  p.ran = true; // before the await: a second runSweep of the plan meanwhile is refused
  const { spec, text, only, backend, conditions } = p;
  const budget = plan.budget_tokens;
  const writer = await createRun(opts.store, {
    spec,
    specText: text,
    target: plan.target,
    salt: plan.salt,
    maxMde: p.maxMde,
    // The gate's own figures (it applied the defaults): the run records what the gate planned with.
    q: plan.gate.q,
    power: plan.gate.power,
    method: plan.gate.method,
    ...(opts.discordance !== undefined ? { discordance: opts.discordance } : {}),
    backend: backend.name,
    command: opts.command,
    now: opts.now,
    cwd: p.cwd,
    targetPath: p.path,
    partRows: opts.partRows,
    partBytes: opts.partBytes,
    recorded:
      only !== null || budget !== null || backend.options !== undefined || opts.maxOutputTokens !== undefined || p.runtime.refreshSince
        ? {
            only,
            budget_tokens: budget,
            ...(opts.maxOutputTokens !== undefined ? { max_output_tokens: opts.maxOutputTokens } : {}),
            ...(p.runtime.refreshSince ? { refresh_cache: p.runtime.refreshSince } : {}),
            ...(backend.options !== undefined ? { backend_options: { ...backend.options } } : {}),
          }
        : undefined,
  }).catch((err: unknown) => {
    p.ran = false; // no run was made: the plan (its configured target) may be run again
    throw err;
  });
  try {
    opts.onCreated?.(writer.manifest);
  } catch (err) {
    // The run exists: it is not left `running` (and its lock is released).
    await writer.close('failed').catch(() => undefined);
    throw err;
  }
  const total = conditions.length * spec.replicates;
  try {
    return await execute(writer, workItems(conditions, 0, spec.replicates, writer.manifest.seeds), total, backend, p.source, {
      ...opts,
      ...(p.concurrency !== undefined ? { concurrency: p.concurrency } : {}),
      runtime: p.runtime,
      targetStop: p.targetStop,
    });
  } catch (err) {
    throw await removeIfEmpty(opts.store, writer.manifest.run_id, err);
  }
}

/**
 * A target that could not start where the episodes run (a module that loads in this process but fails
 * in a worker thread, a configure that throws there): the run this sweep created holds no episode and
 * billed nothing, so it is removed, and the refusal (exit 2) writes nothing, as one before the run was
 * made does. Until the sixth session of 2026-12-06 it was left `failed` with 0 rows beside the message
 * "fix the module and try again", and trying again made another (a review). Other errors, and a run
 * that holds rows or billed tokens, are left as they are.
 */
async function removeIfEmpty(store: string, runId: string, err: unknown): Promise<unknown> {
  if (!(err instanceof TargetError)) return err;
  const m = await readManifest(store, runId).catch(() => null);
  if (m === null || m.status !== 'failed' || m.counts.rows > 0 || (m.parts ?? []).length > 0 || (m.usage?.billed_tokens ?? 0) > 0) return err;
  await rm(runDir(store, runId), { recursive: true, force: true });
  return new TargetError([...err.problems, `the run ${runId} this sweep had created held no episode and was removed: nothing was written.`]);
}

/**
 * Sweeps a target over a spec's conditions x replicates into a new run of the store: {@link planSweep}
 * and {@link runSweep} in one, refusing as early as it can.
 *
 * Order: parse the spec, run the power gate (m = conditions, alpha = q/m, n = replicates; refuse when
 * MDE(n, alpha, power) > maxMde), load the target, configure it once, ask its `check` hook — all before
 * anything is written — then create the run, run every (condition, replicate) with seed =
 * seedFor(salt, r) on the backend, stream rows into parquet parts, and close the run `complete` (or
 * `interrupted` when the signal aborted, `failed` when the backend or the store failed).
 *
 * @param opts - {@link SweepOptions}.
 * @returns the run's final manifest.
 * With `only`, the spec's axes are narrowed first and the manifest records `only`. With `budgetTokens`
 * and a target with a `plan` hook, a plan that may bill more is refused (ProveError `E_BUDGET`) before
 * anything is written (`plan` is called once per episode, and only then); the target is configured with
 * the budget, and when its `signal` aborts the run ends `interrupted`. The target's `usage()` goes into
 * the manifest's `usage`. Each hook is called at most once per sweep in this process (see
 * {@link planSweep}): `configure`, then `check` per condition and, with a budget, `plan` per episode;
 * `estimate` is not called. On worker threads or bullmq this process configures its copy (with
 * `dryRun: true`) only when it plans for a budget; the workers configure their own.
 *
 * @throws {@link SpecError}, {@link GateError}, {@link TargetError}, ProveError `E_ONLY` / `E_BUDGET` /
 *   `E_CHECK`, `E_ABORTED` (the signal aborted before the run was created), RangeError/TypeError for bad
 *   options: all before anything is written. When `onCreated` throws, the run is closed `failed` and the
 *   error rethrown. A {@link TargetError} where the episodes run (a module that fails to load in a worker
 *   thread) after the run was created removes the run when it holds no episode and billed nothing, and
 *   says so in a second problem.
 * @example
 * ```ts
 * const run = await sweep({ spec: text, target: './targets.mjs:coin', store: 'store', salt: '0123456789abcdef', maxMde: 0.99 });
 * run.status; // 'complete'
 * ```
 * @see PROVE.md, "The executor".
 */
export async function sweep(opts: SweepOptions): Promise<RunManifest> {
  // A sweep is never a dry run, whatever an untyped caller passes.
  return runSweep(await prepare({ ...opts, dryRun: false }, true));
}
