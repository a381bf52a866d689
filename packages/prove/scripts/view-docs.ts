// Makes docs/view.md's figures: a store with real changes (examples/diff_demo, as docs/view.md's commands), its
// diff page and run page, and the scripted path's diff page, each opened in Debian's Chromium and
// captured as a PNG in docs/.
// Run: npm run build && npm run example && node --conditions=poisson-source --import tsx packages/prove/scripts/view-docs.ts [STORE]
// (STORE: where the demo runs go, default a new temporary directory; it must not hold runs already).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sweep, viewDiff, viewRun, type TargetConfig } from '../src/index.js';
import { before, mixed } from '../../../examples/diff_demo/targets.js';
import { openBrowser } from '../test/browser.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const DOCS = join(ROOT, 'docs');
const store = process.argv[2] ?? join(mkdtempSync(join(tmpdir(), 'view-docs-')), 'store');
console.log(`store: ${store}`);
// The runs of docs/view.md's commands: examples/diff_demo's `before` and `mixed` on the salt demo-salt
// (the same seeds, so the same pairs, as the page's console blocks).
const spec = readFileSync(join(ROOT, 'examples', 'diff_demo', 'sweep.toml'), 'utf8');
const common = { spec, store, salt: 'demo-salt', maxMde: 0.35 };
const as = (t: typeof before) => (cfg: TargetConfig) => t({ seed: cfg.seed, slack: cfg['slack'] as number, strictness: String(cfg['strictness']) });
const a = await sweep({ ...common, target: as(before) });
const b = await sweep({ ...common, target: as(mixed) });
const demo = await viewDiff(store, a.run_id, b.run_id);
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
