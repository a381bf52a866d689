// Makes docs/view.md's figures: a store with a real change (the noisy policy, as in docs/diff.md), its
// diff page and run page, and the scripted path's diff page, each opened in Debian's Chromium and
// captured as a PNG in docs/.
// Run: npm run build && npm run example && node --conditions=source --import tsx packages/prove/scripts/view-docs.ts [STORE]
// (STORE: where the demo runs go, default a new temporary directory; it must not hold runs already).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generate, noisyPolicy, parseArmId, runEpisode, neededTurns } from 'poisson-tasks';
import { sweep, viewDiff, viewRun, type TargetConfig } from '../src/index.js';
import { openBrowser } from '../test/browser.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const DOCS = join(ROOT, 'docs');
const SPEC = `target_id = "noisy-demo"
t_unit = "turns"
replicates = 64
[axes.slack]
type = "continuous"
values = [2, 4, 8]
[axes.strictness]
type = "categorical"
values = ["strict", "lenient"]
`;

/** The noisy policy on depth-1 tasks, failing an episode with probability `p(cfg)` keyed by its seed. */
function noisyTarget(name: string, p: (cfg: TargetConfig) => number) {
  const target = async (cfg: TargetConfig) => {
    const arm = parseArmId('depth:d1', { strictness: cfg['strictness'] as 'strict' | 'lenient', split: 'eval', generatorVersion: '0' });
    const task = generate(arm, cfg.seed);
    const result = await runEpisode(task, noisyPolicy({ p: p(cfg) }), { maxTurns: neededTurns(arm) + Number(cfg['slack']) });
    return { outcome: result.outcome, t: result.t, meta: { arm: 'depth:d1', p: p(cfg), calls: result.calls.length } };
  };
  Object.defineProperty(target, 'name', { value: name });
  return target;
}

const store = process.argv[2] ?? join(mkdtempSync(join(tmpdir(), 'view-docs-')), 'store');
console.log(`store: ${store}`);
const common = { spec: SPEC, store, salt: 'view-docs-salt-01', maxMde: 0.4 };
// a: 0.45 everywhere. b: the same, except slack 2 · strict drops to 0.15 (better) and slack 8 ·
// lenient rises to 0.7 (worse); the policy's draw is keyed by the seed, so the changes are one-way.
const a = await sweep({ ...common, target: noisyTarget('noisy-a', () => 0.45) });
const b = await sweep({
  ...common,
  target: noisyTarget('noisy-b', (cfg) => (cfg['slack'] === 2 && cfg['strictness'] === 'strict' ? 0.15 : cfg['slack'] === 8 && cfg['strictness'] === 'lenient' ? 0.7 : 0.45)),
});
const demo = await viewDiff(store, a.run_id, b.run_id, { events: ['failed'] });
console.log(`demo: ${demo.report.verdict}: ${demo.report.sentence}`);
const pages: [string, string, string | null][] = [];
const write = (name: string, html: string): string => {
  const file = join(store, name);
  writeFileSync(file, html);
  return file;
};
pages.push([write('diff.html', demo.html), 'view-diff.png', 'tr.cond']);
pages.push([write('run.html', (await viewRun(store, a.run_id)).html), 'view-run.png', null]);
// The scripted path's store (npm run example): depth:d1 (#3) against depth:d3 (#2).
const example = join(ROOT, 'examples', 'prove_sweep', 'example-store', 'runs');
const scripted = await viewDiff(example, '#3', '#2', { events: ['passed'] });
console.log(`scripted path: ${scripted.report.verdict}`);
pages.push([write('scripted.html', scripted.html), 'view-scripted-path.png', 'tr.cond']);

const s = await openBrowser();
try {
  await s.context.setOffline(true);
  for (const [file, png, click] of pages) {
    await s.page.goto(pathToFileURL(file).href);
    await s.page.waitForSelector('html[data-ready="true"]');
    if (click !== null) {
      await s.page.locator(click).first().click();
      await s.page.locator('#pairs details').first().evaluate((d) => d.setAttribute('open', ''), undefined).catch(() => undefined);
    }
    await s.page.screenshot({ path: join(DOCS, png), fullPage: true });
    console.log(`wrote docs/${png}`);
  }
  if (s.errors.length > 0) throw new Error(`console errors: ${s.errors.join('; ')}`);
} finally {
  await s.close();
}
