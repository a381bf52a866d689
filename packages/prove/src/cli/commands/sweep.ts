import { readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { GateInput } from '../../gate.js';
import { TEST_METHODS } from '../../internal/mde.js';
import type { CallPlan } from '../../executor/call-plan.js';
import { parseOnly } from '../../executor/narrow-spec.js';
import type { SweepPlan } from '../../executor/sweep.js';
import type { PriceTable } from '../../target/price-table.js';
import { defineCommand } from '../define.js';
import { budgetSpentWords, json, noOutcomeMessage, proveCommand, resumeWithBudget, runExitCode, runSummary, spentBudget, withTrustStore } from '../format.js';
import { UsageError } from '../parse.js';
import { progressReporter, QUIET_OPTION } from '../progress.js';
import { Values } from '../values.js';
import { bullmqExecution, recordedCommand } from './bullmq-options.js';
import { allowedNoOutcome, executionOptions, EXECUTION_OPTIONS, MODEL_RUN_OPTIONS, modelRunOptions } from './shared.js';

/** The plan's call totals in a few lines (sweep --dry-run). */
function callPlanText(calls: CallPlan, budget: number | null): string[] {
  const t = calls.totals;
  const rows = [
    `  calls       ${t.calls} in ${t.episodes} episodes (${t.cached_episodes} episodes all from the cache)`,
    `  tokens      prompt ≈ ${t.est_prompt_tokens} (estimate), output ≤ ${t.max_output_tokens}; may bill ≤ ${t.billable_tokens}${budget !== null ? ` (budget ${budget})` : ''}`,
  ];
  if (t.est_cost_usd !== null) rows.push(`  cost        ≤ $${t.est_cost_usd.toFixed(4)} (uncached calls: prompt estimate and output cap at the price table)`);
  return rows;
}

/** The gate's input as the plan computed it (m = conditions x declared events, its discordance). */
function gateOf(plan: SweepPlan): GateInput {
  const g = plan.gate;
  return { conditions: g.conditions, events: g.events, replicates: g.replicates, maxMde: g.maxMde, q: g.q, power: g.power, method: g.method, ...(g.discordance !== null ? { discordance: g.discordance } : {}) };
}

function planText(plan: SweepPlan, store: string): string {
  const g = plan.gate;
  const seeds = plan.seeds.length > 4 ? `${plan.seeds.slice(0, 4).join(', ')}, ... (${plan.seeds.length})` : plan.seeds.join(', ');
  const rows: string[] = [
    `plan ${plan.target_id}: ${plan.conditions.length} condition${plan.conditions.length === 1 ? '' : 's'} x ${plan.replicates} replicates = ${plan.episodes} episodes`,
    `  target      ${plan.target}`,
    `  store       ${store}`,
    `  salt        ${plan.salt}`,
    `  seeds       ${seeds}`,
    `  gate        ${g.sentence} (m ${g.tests}${g.events > 1 ? ` = ${g.conditions} conditions x ${g.events} events` : ''}, alpha ${Number(g.alpha.toPrecision(4))}, power ${g.power}, ${g.method})`,
  ];
  rows.push(`  model       the gate ${g.assumption}`);
  if (plan.only) rows.push(`  only        ${Object.entries(plan.only).map(([k, vs]) => `${k}=${vs.join(',')}`).join(' ')} (a narrowed spec)`);
  // One token figure: a target that plans its calls shows the plan's (the output cap that will be sent).
  if (plan.estimate && !plan.calls) rows.push(`  estimate    ${plan.estimate.calls} calls, ${plan.estimate.tokens} tokens`);
  if (plan.calls) rows.push(...callPlanText(plan.calls, plan.budget_tokens));
  plan.conditions.forEach((c, i) => rows.push(`  ${i === 0 ? 'conditions' : '          '}  ${c}`));
  return `${rows.join('\n')}\n`;
}

export const sweepCommand = defineCommand({
  name: 'sweep',
  summary: 'Run a target over a spec\'s conditions x replicates on shared seeds into a new run of the store.',
  description:
    'The power gate runs first: with m = conditions x the spec\'s declared events (events = [...]; x 1 when none), alpha = q/m and n replicates, the best change a condition can show, MDE(n, alpha, power), must not exceed --max-mde, or nothing is written. It assumes seeds that never disagree between runs unless --discordance P gives the share of pairs expected to disagree (then the limit is read at that discordance, a change of d making up to d more pairs disagree, as the diff reads it at the observed one). ' +
    'Seeds are seed(salt, r) = the first 4 bytes, big-endian, of sha256("<salt>:<r>"). On a terminal the sweep asks for confirmation unless --yes; without one it needs --yes. Declining writes nothing and exits 2. ' +
    'With --dry-run the plan is printed (with --json, as one JSON document on stdout) even when the gate or the token budget refuses it; the refusal is then on stderr and the exit code is 2. ' +
    'An error a target throws outside its episodes (from a timer, or a promise it did not await) stops the run as SIGINT does (interrupted, exit 1); run such targets with --backend threads. A target that calls process.exit in an episode gets that episode\'s error (ProcessExitError), as a thread exiting is on --backend threads; from a timer, the call stops the run as such an error does. On the local backend an episode whose promise can never settle (the process has nothing left to do: a target that awaits something that never happens) stops the run without waiting for it: what finished is kept, the run is interrupted, exit 1; on --backend threads such an episode waits: give such a target --timeout. ' +
    'SIGINT/SIGTERM finish the episodes in flight and the part in hand and mark the run interrupted (resume it with poisson-prove resume). ' +
    'Progress goes to stderr: on a terminal a bar (done/total, rate, ETA, rows without an outcome); elsewhere (a log file, CI) a status line at most every 10 s and one at the end, with the tokens billed when the target reports them; none with --quiet or --json.',
  positionals: [{ name: 'SPEC', description: 'The sweep spec (TOML): target_id, t_unit, replicates, [axes.NAME].', required: true }],
  options: {
    target: { type: 'string', valueName: 'FILE:NAME', required: true, description: 'The target: a module (.js, .mjs, .ts via tsx) and the name of its export (or of a property of its default export).' },
    'max-mde': { type: 'string', valueName: 'X', required: true, number: { above: 0, max: 1 }, description: 'The largest change the sweep must be able to show, in (0, 1]; the power gate refuses designs that cannot.' },
    salt: { type: 'string', valueName: 'S', description: 'The seeds\' salt; two runs with the same salt are paired by seed.', default: '16 random hex digits, recorded' },
    yes: { type: 'boolean', description: 'Do not ask for confirmation.' },
    json: { type: 'boolean', description: 'Print the run\'s manifest (or, with --dry-run, the plan) as one JSON document on stdout.' },
    quiet: QUIET_OPTION,
    'dry-run': { type: 'boolean', description: 'Print the plan (conditions, replicates, seeds, episodes, the gate\'s figure, calls and tokens when the target estimates them, the call totals when it plans them) and write nothing in the store. A model target plans with its provider\'s key: a dry run without it exits 2 naming the variable to set (docs/models.md).' },
    plan: { type: 'string', valueName: 'FILE.csv', description: 'With --dry-run: write the planned call matrix, one row per episode (condition, replicate_index, seed, model, calls, cache_hit, est_prompt_tokens, max_output_tokens, billable_tokens, and est_cost_usd with --prices), for targets with a plan hook.' },
    prices: { type: 'string', valueName: 'FILE', description: 'A price table (TOML or JSON): ["provider:model"] input_usd_per_million = X, output_usd_per_million = Y. The plan then shows the cost of the uncached calls (output at its cap: an upper bound).' },
    only: { type: 'string', valueName: 'AXIS=V1,V2', multiple: true, description: 'Narrow an axis of the spec to these values (repeatable), for a smoke run; the power gate is computed on the narrowed design and the manifest records the narrowing (`only`). A value that holds a comma writes it \\, (e.g. --only \'prompt=short\\, direct\').' },
    q: { type: 'string', valueName: 'Q', number: { above: 0, below: 1 }, description: 'The false discovery rate of the gate (alpha = q/m).', default: '0.05' },
    power: { type: 'string', valueName: 'P', number: { above: 0, below: 1 }, description: 'The power of the gate.', default: '0.8' },
    method: { type: 'string', valueName: 'M', choices: [...TEST_METHODS], description: 'The paired test whose rejection rule defines the gate\'s limit (asymptotic-cc: with Edwards\' continuity correction).', default: 'exact' },
    discordance: {
      type: 'string',
      valueName: 'P',
      number: { min: 0, max: 1 },
      description:
        'The share of pairs expected to disagree between two runs of the target, in [0, 1] (a model sampled at temperature > 0 disagrees with itself; two independent runs at pass rate p disagree about 2p(1 - p) of the time). The gate plans with it and the manifest records it; without it the gate assumes seeds that never disagree.',
    },
    ...EXECUTION_OPTIONS,
    ...MODEL_RUN_OPTIONS,
  },
  examples: [
    'poisson-prove sweep sweep.toml --target registry.ts:reference_depth_d1 --max-mde 0.99 --salt 0123456789abcdef --yes --json',
    'poisson-prove sweep sweep.toml --target targets.mjs:policy --max-mde 0.3 --dry-run',
    'poisson-prove sweep matrix.toml --target targets.ts:skill_matrix --max-mde 1 --only model=poe:GPT-5.2 --dry-run --plan plan.csv --prices prices.toml --budget-tokens 400000',
  ],
  async run({ positionals, options, store, io, argv }) {
    const command = proveCommand({ store, io });
    const v = new Values(options);
    const maxMde = v.number('max-mde');
    const q = v.number('q');
    const power = v.number('power');
    const method = v.choice('method', TEST_METHODS);
    const discordance = v.number('discordance');
    const exec = executionOptions(v);
    const model = modelRunOptions(v);
    const dist = await bullmqExecution(v, io);
    const salt = v.string('salt');
    if (salt === '') v.problem('--salt is empty; give a salt or leave it out for a random one.');
    const planFile = v.string('plan');
    if (planFile !== undefined && !v.flag('dry-run')) v.problem('--plan FILE.csv goes with --dry-run; add --dry-run (or leave --plan out).');
    let only: Record<string, string[]> | undefined;
    try {
      only = v.list('only').length > 0 ? parseOnly(v.list('only')) : undefined;
    } catch (err) {
      for (const p of (err as { problems?: readonly string[] }).problems ?? [String(err)]) v.problem(p);
    }
    v.done();
    const [{ assertGate }, { callPlanCsv, checkCallBudget }, { planSweep, runSweep }, { parsePrices }] = await Promise.all([
      import('../../gate.js'),
      import('../../executor/call-plan.js'),
      import('../../executor/sweep.js'),
      import('../../target/price-table.js'),
    ]);
    let prices: PriceTable | undefined;
    const pricesArg = v.string('prices');
    if (pricesArg !== undefined) {
      const file = isAbsolute(pricesArg) ? pricesArg : resolve(io.cwd, pricesArg);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        throw new UsageError([`the price table ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)}); pass --prices with a TOML or JSON file.`]);
      }
      prices = parsePrices(text);
    }
    const specArg = positionals['SPEC'] as string;
    const specFile = isAbsolute(specArg) ? specArg : resolve(io.cwd, specArg);
    let specText: string;
    try {
      specText = await readFile(specFile, 'utf8');
    } catch (err) {
      throw new UsageError([`the spec ${specFile} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)}); pass the path of a sweep spec (TOML).`]);
    }
    const base = {
      spec: specText,
      target: v.string('target') as string,
      store,
      maxMde: maxMde as number,
      ...(salt !== undefined ? { salt } : {}),
      ...(q !== undefined ? { q } : {}),
      ...(power !== undefined ? { power } : {}),
      ...(method !== undefined ? { method } : {}),
      ...(discordance !== undefined ? { discordance } : {}),
      ...exec,
      ...model,
      ...(only ? { only } : {}),
      cwd: io.cwd,
    };
    // Planned once: the spec parsed, the gate computed, the target loaded and configured (for the run, or
    // with --dry-run for planning only), its check, estimate and plan hooks asked; runSweep runs this plan.
    const dryRun = v.flag('dry-run');
    const plan = await planSweep({
      ...base,
      ...(prices ? { prices } : {}),
      ...(dist ? { backend: dist.backend } : {}),
      ...(dryRun ? { dryRun } : { command: recordedCommand(argv), signal: dist?.signal ?? io.signal }),
    });
    const asJson = v.flag('json');
    if (planFile !== undefined && plan.calls === null) {
      throw new UsageError([`--plan needs a target with a plan hook (plan(cfg) -> { calls, cache_hit, prompt_tokens, max_output_tokens }); ${plan.target} has none.`]);
    }
    if (dryRun) {
      if (planFile !== undefined && plan.calls) {
        const file = isAbsolute(planFile) ? planFile : resolve(io.cwd, planFile);
        await writeFile(file, callPlanCsv(plan.calls));
      }
      // The plan is printed even when the gate or the budget refuses it; the refusal is then on stderr
      // and the exit code is 2 (with --json too: stdout keeps the plan, plan.gate.passes is false).
      io.stdout.write(asJson ? json(plan) : `${planText(plan, store)}${planFile !== undefined ? `  plan        ${planFile}\n` : ''}`);
      if (!plan.gate.passes) assertGate(gateOf(plan));
      if (plan.calls && model.budgetTokens !== undefined) checkCallBudget(plan.calls, model.budgetTokens);
      return 0;
    }
    assertGate(gateOf(plan));
    if (plan.calls && model.budgetTokens !== undefined) checkCallBudget(plan.calls, model.budgetTokens);
    await dist?.check();
    if (!v.flag('yes')) {
      if (!io.isTTY) throw new UsageError(['sweep asks for confirmation before it writes a run, and there is no terminal to ask on; pass --yes.']);
      io.stderr.write(planText(plan, store));
      const ok = await (io.confirm as (q: string) => Promise<boolean>)(`run ${plan.episodes} episodes into ${store}? [y/N] `);
      if (!ok) {
        // Neither a failure found (1) nor quite bad input: 2, as for a missing --yes without a terminal.
        io.stderr.write('not confirmed: pass --yes to run without asking; nothing was written.\n');
        return 2;
      }
    }
    const bar = progressReporter(io, 'sweep', !asJson && !v.flag('quiet'));
    let manifest;
    try {
      manifest = await runSweep(plan, { onProgress: (p) => bar.update(p) });
    } finally {
      bar.stop();
    }
    // The resume it suggests must work when pasted: with --trust-store when the module lies outside the working
    // tree. Asked of git only when a command is printed (not for --json of a run that ended complete).
    // So must the resume --retry-errors of the no-outcome message (a review: it was left without the flag).
    const allowed = allowedNoOutcome(v);
    const suggests = !asJson || manifest.status === 'interrupted' || noOutcomeMessage(manifest, allowed) !== null;
    const next = suggests && (await (await import('../../store/resume-command.js')).trustStoreNeeded(manifest, io.cwd)) ? withTrustStore(command) : command;
    // The figure the sweep was admitted at, and the model it rests on: without --discordance the gate
    // assumed seeds that never disagree, which only its refusal and --dry-run said (a review, third session
    // of 2026-12-07): a sweep of a model at temperature > 0 passed it in silence and its diffs then read
    // limits above the threshold.
    const g = plan.gate;
    const gateNote = `gate: ${g.sentence}${g.discordance === null ? `; it ${g.assumption}` : ''}`;
    io.stdout.write(asJson ? json(manifest) : runSummary('sweep', manifest, next, [gateNote]));
    dist?.report(manifest);
    const code = runExitCode(manifest, allowed);
    const none = noOutcomeMessage(manifest, allowed, next);
    if (none !== null) {
      io.stderr.write(none);
    } else if (manifest.status === 'interrupted') {
      const rest = spentBudget(manifest) ? `${budgetSpentWords(manifest)}; ${resumeWithBudget(manifest, next)} runs the rest` : `${next('resume', manifest.run_id)} runs the rest`;
      io.stderr.write(`interrupted: ${manifest.counts.rows} episodes stored; ${rest}.\n`);
    }
    return code;
  },
});
