import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { assertGate } from '../../gate.js';
import { planSweep, sweep, type SweepPlan } from '../../executor/sweep.js';
import { defineCommand } from '../define.js';
import { json, runExitCode, runSummary, shellRef } from '../format.js';
import { UsageError } from '../parse.js';
import { progressBar } from '../progress.js';
import { Values } from '../values.js';
import { bullmqExecution, recordedCommand } from './bullmq-options.js';
import { executionOptions, EXECUTION_OPTIONS } from './shared.js';

function planText(plan: SweepPlan, store: string): string {
  const g = plan.gate;
  const seeds = plan.seeds.length > 4 ? `${plan.seeds.slice(0, 4).join(', ')}, ... (${plan.seeds.length})` : plan.seeds.join(', ');
  const rows: string[] = [
    `plan ${plan.target_id}: ${plan.conditions.length} condition${plan.conditions.length === 1 ? '' : 's'} x ${plan.replicates} replicates = ${plan.episodes} episodes`,
    `  target      ${plan.target}`,
    `  store       ${store}`,
    `  salt        ${plan.salt}`,
    `  seeds       ${seeds}`,
    `  gate        ${g.sentence} (m ${g.conditions}, alpha ${Number(g.alpha.toPrecision(4))}, power ${g.power}, ${g.method})`,
  ];
  if (plan.estimate) rows.push(`  estimate    ${plan.estimate.calls} calls, ${plan.estimate.tokens} tokens`);
  plan.conditions.forEach((c, i) => rows.push(`  ${i === 0 ? 'conditions' : '          '}  ${c}`));
  return `${rows.join('\n')}\n`;
}

export const sweepCommand = defineCommand({
  name: 'sweep',
  summary: 'Run a target over a spec\'s conditions x replicates on shared seeds into a new run of the store.',
  description:
    'The power gate runs first: with m conditions, alpha = q/m and n replicates, the best change a condition can show, MDE(n, alpha, power), must not exceed --max-mde, or nothing is written. ' +
    'Seeds are seed(salt, r) = the first 4 bytes, big-endian, of sha256("<salt>:<r>"). On a terminal the sweep asks for confirmation unless --yes; without one it needs --yes. ' +
    'SIGINT/SIGTERM finish the episodes in flight and the part in hand and mark the run interrupted (resume it with poisson-prove resume).',
  positionals: [{ name: 'SPEC', description: 'The sweep spec (TOML): target_id, t_unit, replicates, [axes.NAME].', required: true }],
  options: {
    target: { type: 'string', valueName: 'FILE:NAME', required: true, description: 'The target: a module (.js, .mjs, .ts via tsx) and the name of its export (or of a property of its default export).' },
    'max-mde': { type: 'string', valueName: 'X', required: true, number: { above: 0, max: 1 }, description: 'The largest change the sweep must be able to show, in (0, 1]; the power gate refuses designs that cannot.' },
    salt: { type: 'string', valueName: 'S', description: 'The seeds\' salt; two runs with the same salt are paired by seed.', default: '16 random hex digits, recorded' },
    yes: { type: 'boolean', description: 'Do not ask for confirmation.' },
    json: { type: 'boolean', description: 'Print the run\'s manifest (or, with --dry-run, the plan) as one JSON document on stdout.' },
    'dry-run': { type: 'boolean', description: 'Print the plan (conditions, replicates, seeds, episodes, the gate\'s figure, calls and tokens when the target estimates them) and write nothing.' },
    q: { type: 'string', valueName: 'Q', number: { above: 0, below: 1 }, description: 'The false discovery rate of the gate (alpha = q/m).', default: '0.05' },
    power: { type: 'string', valueName: 'P', number: { above: 0, below: 1 }, description: 'The power of the gate.', default: '0.8' },
    method: { type: 'string', valueName: 'M', choices: ['exact', 'midp', 'asymptotic'], description: 'The paired test whose rejection rule defines the gate\'s limit.', default: 'exact' },
    ...EXECUTION_OPTIONS,
  },
  examples: [
    'poisson-prove sweep sweep.toml --target registry.ts:reference_depth_d1 --max-mde 0.99 --salt 0123456789abcdef --yes --json',
    'poisson-prove sweep sweep.toml --target targets.mjs:policy --max-mde 0.3 --dry-run',
  ],
  async run({ positionals, options, store, io, argv }) {
    const v = new Values(options);
    const maxMde = v.number('max-mde');
    const q = v.number('q');
    const power = v.number('power');
    const method = v.choice('method', ['exact', 'midp', 'asymptotic'] as const);
    const exec = executionOptions(v);
    const dist = bullmqExecution(v, io);
    const salt = v.string('salt');
    if (salt === '') v.problem('--salt is empty; give a salt or leave it out for a random one.');
    v.done();
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
      ...exec,
      cwd: io.cwd,
    };
    const plan = await planSweep(base);
    const asJson = v.flag('json');
    if (v.flag('dry-run')) {
      io.stdout.write(asJson ? json(plan) : planText(plan, store));
      if (!plan.gate.passes) assertGate({ conditions: plan.conditions.length, replicates: plan.replicates, maxMde: maxMde as number, q, power, method });
      return 0;
    }
    assertGate({ conditions: plan.conditions.length, replicates: plan.replicates, maxMde: maxMde as number, q, power, method });
    await dist?.check();
    if (!v.flag('yes')) {
      if (!io.isTTY) throw new UsageError(['sweep asks for confirmation before it writes a run, and there is no terminal to ask on; pass --yes.']);
      io.stderr.write(planText(plan, store));
      const ok = await (io.confirm as (q: string) => Promise<boolean>)(`run ${plan.episodes} episodes into ${store}? [y/N] `);
      if (!ok) {
        io.stderr.write('not run: nothing was written.\n');
        return 1;
      }
    }
    const bar = progressBar(io, !asJson);
    let manifest;
    try {
      manifest = await sweep({ ...base, salt: plan.salt, ...(dist ? { backend: dist.backend } : {}), command: recordedCommand(argv), signal: dist?.signal ?? io.signal, onProgress: (p) => bar.update(p) });
    } finally {
      bar.stop();
    }
    io.stdout.write(asJson ? json(manifest) : runSummary('sweep', manifest));
    dist?.report(manifest);
    const code = runExitCode(manifest);
    if (code !== 0 && manifest.status === 'complete') {
      io.stderr.write(`error: every episode ended without an outcome; see poisson-prove inspect ${shellRef(manifest.run_id)} for the errors.\n`);
    } else if (manifest.status === 'interrupted') {
      io.stderr.write(`interrupted: ${manifest.counts.rows} episodes stored; poisson-prove resume ${manifest.run_id} runs the rest.\n`);
    }
    return code;
  },
});
