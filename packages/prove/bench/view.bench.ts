// The view page of a large diff in Debian's Chromium: 100 conditions x 1,000 replicates (two runs of
// 100,000 episodes), from navigation to interactive (the page's script has run) and to a click's
// discordant pairs on screen; the target is under 2 s. The baseline, measured in the same run and the
// same browser, is a blank page; the ratio is the view's time over it.
// Before the browser, writing the page (viewDiff) is timed against the row path the view took before
// (bench/rows-columns.ts), each in its own process.
// Run: npm run bench -- prove/bench/view   (BENCH_REPLICATES to change the 1,000)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildRun } from '../src/diff/__fixtures__/build-run.js';
import { viewDiff } from '../src/view/view-diff.js';
import { haveChromium, openBrowser, CHROMIUM } from '../test/browser.js';
import { ROWS_COLUMNS_HEADER, rowsAgainstColumns } from './rows-columns.js';

const REPLICATES = Number(process.env['BENCH_REPLICATES'] ?? 1000);
const ROUNDS = 5;
const ROW_ROUNDS = Number(process.env['BENCH_VIEW_ROUNDS'] ?? 2);
const ROW_PROCESSES = Number(process.env['BENCH_VIEW_PROCESSES'] ?? 1);
if (!haveChromium()) {
  console.error(`no browser at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM)`);
  process.exit(2);
}

const spec = [
  'target_id = "view-bench"',
  't_unit = "turns"',
  `replicates = ${REPLICATES}`,
  '[axes.slack]',
  'type = "continuous"',
  `values = [${Array.from({ length: 10 }, (_, i) => i + 1).join(', ')}]`,
  '[axes.variant]',
  'type = "categorical"',
  `values = [${Array.from({ length: 10 }, (_, i) => `"v${i}"`).join(', ')}]`,
  '',
].join('\n');

// A deterministic hash of (condition, replicate, run) in [0, 1).
const u = (c: number, r: number, k: number): number => {
  let x = (c * 1_000_003 + r * 7919 + k * 104_729) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
  return ((x ^ (x >>> 16)) >>> 0) / 2 ** 32;
};
// Before: each condition fails 30% of its seeds. After: the same, except that in every tenth condition
// 60% of the failed seeds pass (a real change) and in every seventh 10% of the passed seeds fail.
const before = (c: number, r: number): string => (u(c, r, 0) < 0.3 ? 'failed' : 'passed');
const after = (c: number, r: number): string => {
  const b = before(c, r);
  if (c % 10 === 0 && b === 'failed' && u(c, r, 1) < 0.6) return 'passed';
  if (c % 7 === 0 && b === 'passed' && u(c, r, 2) < 0.1) return 'failed';
  return b;
};

const dir = mkdtempSync(join(tmpdir(), 'prove-view-bench-'));
try {
  let t = performance.now();
  await buildRun(dir, { specText: spec, now: new Date('2026-11-06T10:00:00Z'), maxMde: 0.1, outcomes: before });
  await buildRun(dir, { specText: spec, now: new Date('2026-11-06T10:00:01Z'), maxMde: 0.1, outcomes: after });
  console.log(`store: 2 runs x 100 conditions x ${REPLICATES} replicates written in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  t = performance.now();
  const view = await viewDiff(dir, '#2', '#1');
  const write = performance.now() - t;
  // Writing the page: the row path the view took before against the columnar read it takes now (each
  // in its own process, the same bytes checked), best of BENCH_VIEW_ROUNDS rounds in each of
  // BENCH_VIEW_PROCESSES interleaved processes (default 2 and 1).
  console.log(`writing the page, rows against columns (best of ${ROW_ROUNDS} rounds x ${ROW_PROCESSES} process${ROW_PROCESSES === 1 ? '' : 'es'}):`);
  console.log(ROWS_COLUMNS_HEADER);
  rowsAgainstColumns(`viewDiff, 2 x ${(100 * REPLICATES).toLocaleString('en-US')} episodes`, 'view', dir, '#2', '#1', 'slack', ROW_PROCESSES, ROW_ROUNDS);
  const file = join(dir, 'view.html');
  writeFileSync(file, view.html);
  const blank = join(dir, 'blank.html');
  writeFileSync(blank, '<!DOCTYPE html><html><body><script>document.documentElement.setAttribute("data-ready","true")</script></body></html>');
  console.log(`page: ${view.report.rows.length} rows, ${(view.html.length / 1024).toFixed(0)} KiB, written by viewDiff in ${(write / 1000).toFixed(2)} s (${view.report.verdict})`);

  const s = await openBrowser();
  try {
    const measure = async (url: string, click: boolean): Promise<{ ready: number; clicked: number }> => {
      const page = await s.context.newPage();
      const t0 = performance.now();
      await page.goto(url);
      await page.waitForSelector('html[data-ready="true"]');
      const ready = performance.now() - t0;
      let clicked = ready;
      if (click) {
        await page.locator('tr.cond').first().click();
        await page.waitForSelector('#pairs h3');
        clicked = performance.now() - t0;
      }
      await page.close();
      return { ready, clicked };
    };
    await measure(pathToFileURL(blank).href, false); // warm the browser
    const base: number[] = [];
    const ready: number[] = [];
    const clicked: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      base.push((await measure(pathToFileURL(blank).href, false)).ready);
      const m = await measure(pathToFileURL(file).href, true);
      ready.push(m.ready);
      clicked.push(m.clicked);
    }
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    console.log(`blank page (baseline): median ${median(base).toFixed(0)} ms over ${ROUNDS}`);
    console.log(`view page interactive: median ${median(ready).toFixed(0)} ms (${(median(ready) / median(base)).toFixed(1)}x the blank page), max ${Math.max(...ready).toFixed(0)} ms; target < 2000 ms: ${Math.max(...ready) < 2000 ? 'met' : 'NOT met'}`);
    console.log(`view page, a condition clicked and its pairs shown: median ${median(clicked).toFixed(0)} ms, max ${Math.max(...clicked).toFixed(0)} ms`);
  } finally {
    await s.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
