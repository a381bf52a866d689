// Run a model matrix of the example skill tasks: models x prompt variants x tasks x repeats.
//
//   npx tsx --conditions=poisson-source examples/skill_tasks/run-matrix.ts --dry-run
//   npx tsx --conditions=poisson-source examples/skill_tasks/run-matrix.ts                 # against the local mock model
//   POE_API_KEY=... npx tsx --conditions=poisson-source examples/skill_tasks/run-matrix.ts \
//       --models poe:GPT-5.2,poe:Claude-Sonnet-4.5 --repeats 2 --budget-tokens 400000 --prices prices.toml
//
// Flags: --models a,b  --variants a,b  --tasks id,id  --tasks-dir DIR  --repeats N  --max-output-tokens N
//        --budget-tokens N  --prices FILE  --refresh-cache  --concurrency N  --timeout-ms N  --store DIR
//        --salt S  --out DIR  --max-mde X  --dry-run  --base-url URL (for local:* models; default: the mock)
//        --mock-usage-scale K (the mock reports K times its usage: shows a run stopping at --budget-tokens)
//
// This script is the CLI layer: it alone reads process.env (for keys) and argv, and prints.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  checkPlanBudget,
  createModelSession,
  createRubricTarget,
  loadRubricTasks,
  matrixCsv,
  matrixEpisodeFromRow,
  matrixEpisodes,
  matrixMarkdown,
  parsePriceTable,
  planCsv,
  planModelCalls,
  planSummary,
  ResponseCache,
  summarizeModelMatrix,
  TokenBudget,
  type ModelsError,
} from 'poisson-models';
import { episodes as readEpisodeRows, planSweep, runSweep } from 'poisson-prove';
import { clusterRobustMeanDifference, pairedScoreDifference } from 'poisson-stats';
import { startMockModel, type MockModel } from './mock-model.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const { values: flags } = parseArgs({
  options: {
    models: { type: 'string', default: 'local:careful,local:eager' },
    variants: { type: 'string', default: 'standard,skeptical_reviewer,adversarial_claim_boundary' },
    tasks: { type: 'string' },
    'tasks-dir': { type: 'string', default: here },
    repeats: { type: 'string', default: '11' },
    'max-output-tokens': { type: 'string', default: '800' },
    'budget-tokens': { type: 'string' },
    prices: { type: 'string' },
    'refresh-cache': { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '4' },
    'timeout-ms': { type: 'string', default: '120000' },
    // As poisson-prove: $POISSON_STORE, else ./store (the repo's store/ is git-ignored: raw answers stay local).
    store: { type: 'string', default: process.env['POISSON_STORE'] ?? 'store' },
    salt: { type: 'string', default: 'skill-matrix-example' },
    out: { type: 'string' },
    'max-mde': { type: 'string', default: '1' },
    'base-url': { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
    'mock-usage-scale': { type: 'string', default: '1' },
  },
});

async function main(): Promise<number> {
  const store = resolve(flags.store as string);
  const out = resolve(flags.out ?? join(store, 'exports'));
  const all = await loadRubricTasks(flags['tasks-dir'] as string);
  const wanted = flags.tasks?.split(',');
  const tasks = wanted ? all.filter((t) => wanted.includes(t.id)) : all;
  const models = (flags.models as string).split(',');
  const variants = (flags.variants as string).split(',');
  const replicates = Number(flags.repeats);

  let mock: MockModel | null = null;
  const usesLocal = models.some((m) => m.startsWith('local:'));
  if (usesLocal && !flags['base-url'] && !flags['dry-run']) mock = await startMockModel(Object.fromEntries(tasks.map((t) => [t.id, t.prompt])), { usageScale: Number(flags['mock-usage-scale']) });
  const localURL = flags['base-url'] ?? mock?.url ?? 'http://127.0.0.1:9/v1';

  const budget = flags['budget-tokens'] ? new TokenBudget(Number(flags['budget-tokens'])) : null;
  const session = createModelSession({
    env: process.env,
    baseURLs: { local: localURL },
    cache: ResponseCache.forStore(store),
    // The built-in mock listens on a new port each run: name it, so a rerun replays from the cache.
    ...(flags['base-url'] ? {} : { cacheEndpoints: { local: 'examples/skill_tasks mock model' } }),
    refreshCache: flags['refresh-cache'] === true,
    concurrency: Number(flags.concurrency),
    timeoutMs: Number(flags['timeout-ms']),
    budget,
  });
  try {
    session.preflight(models); // a missing key is an error here, before any call
    const target = createRubricTarget({ session, tasks, maxOutputTokens: Number(flags['max-output-tokens']), temperature: 0 });
    const axes = { model: models, prompt_variant: variants, task: tasks.map((t) => t.id) };
    const salt = flags.salt as string;

    // 1. The plan: one row per episode, written as CSV; totals (and cost) printed. Nothing is called.
    const plan = await planModelCalls({
      target,
      episodes: matrixEpisodes({ axes, replicates, salt }),
      session,
      ...(flags.prices ? { prices: parsePriceTable(await readFile(flags.prices, 'utf8')) } : {}),
    });
    await mkdir(out, { recursive: true });
    await writeFile(join(out, 'plan.csv'), planCsv(plan));
    console.log(planSummary(plan));
    console.log(`plan: ${join(out, 'plan.csv')}`);
    // The sweep's own plan: conditions, seeds and the power gate (refused sweeps write nothing).
    const spec = [
      'target_id = "skill-task-matrix"',
      't_unit = "calls"',
      `replicates = ${replicates}`,
      ...Object.entries(axes).flatMap(([name, vals]) => [`[axes.${name}]`, 'type = "categorical"', `values = ${JSON.stringify(vals)}`]),
    ].join('\n');
    // Planned once (a dry run's plan only looks); runSweep below runs this very plan.
    const sweepPlan = await planSweep({
      spec,
      target,
      store,
      salt,
      maxMde: Number(flags['max-mde']),
      concurrency: Number(flags.concurrency),
      command: process.argv.slice(1),
      ...(budget ? { signal: budget.signal } : {}),
      ...(flags['dry-run'] ? { dryRun: true } : {}),
    });
    const gate = sweepPlan.gate;
    console.log(`power gate: ${gate.sentence} (${gate.passes ? 'passes' : 'refuses'})`);
    if (budget) checkPlanBudget(plan, budget.limit);
    if (flags['dry-run']) return gate.passes ? 0 : 1;


    // 2. The sweep: an ordinary poisson-prove run; the budget's signal stops it cleanly (interrupted).
    const manifest = await runSweep(sweepPlan);
    const usage = { run_id: manifest.run_id, usage: session.usage(), by_model: session.usageByModel() };
    await writeFile(join(store, manifest.run_id, 'model-usage.json'), `${JSON.stringify(usage, null, 2)}\n`);
    console.log(`run ${manifest.name} (${manifest.run_id}): ${manifest.status}; tokens billed ${usage.usage.billed_tokens}, cache hits ${usage.usage.cache_hits}`);
    if (budget?.exhausted) console.log(String((budget.signal.reason as ModelsError).message));

    // 3. The public export: aggregates only (per model x variant, per replicate, per condition).
    const rows = await readEpisodeRows(store, manifest.run_id);
    const report = summarizeModelMatrix(rows.map((r) => matrixEpisodeFromRow(r as unknown as Record<string, unknown>)));
    await writeFile(join(out, 'matrix.md'), matrixMarkdown(report, 'Skill-task matrix'));
    await writeFile(join(out, 'matrix.csv'), matrixCsv(report));
    console.log(`export: ${join(out, 'matrix.md')}, ${join(out, 'matrix.csv')}`);

    // 4. A paired comparison of the first two models on the same (variant, task, replicate) cells,
    //    with the task as the cluster (Miller 2024).
    if (models.length >= 2) {
      const key = (r: Record<string, unknown>): string => `${String(r['prompt_variant'])}|${String(r['task'])}|${String(r['replicate_index'])}`;
      const score = new Map<string, number>();
      for (const r of rows as unknown as Array<Record<string, unknown>>) if (typeof r['score'] === 'number') score.set(`${String(r['model'])}|${key(r)}`, r['score']);
      const cells = [...new Set((rows as unknown as Array<Record<string, unknown>>).map(key))].filter((k) => score.has(`${models[0]}|${k}`) && score.has(`${models[1]}|${k}`));
      if (cells.length >= 2) {
        const a = cells.map((k) => score.get(`${models[0]}|${k}`) as number);
        const b = cells.map((k) => score.get(`${models[1]}|${k}`) as number);
        const paired = pairedScoreDifference(a, b);
        console.log(`${models[1]} - ${models[0]}: mean score difference ${paired.meanDifference.toFixed(3)} [${paired.interval.lower.toFixed(3)}, ${paired.interval.upper.toFixed(3)}] (paired t, n = ${paired.n})`);
        const clusters = cells.map((k) => k.split('|')[1] as string);
        if (new Set(clusters).size >= 2) {
          const cr = clusterRobustMeanDifference(a, b, clusters);
          console.log(`  clustered by task: [${cr.interval.lower.toFixed(3)}, ${cr.interval.upper.toFixed(3)}] (SE ${cr.standardError.toFixed(3)} vs ${cr.standardErrorIid.toFixed(3)} unclustered, ${cr.clusters} tasks)`);
        }
      }
    }
    return manifest.status === 'complete' ? 0 : 1;
  } finally {
    await mock?.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  },
);
