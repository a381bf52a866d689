// The view page in a real headless Chromium (Debian's package, driven by playwright-core; .ci/run
// installs it when missing): what a reader sees and clicks.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempStore } from '../src/diff/__fixtures__/build-run.js';
import { EVENTS, importPairRuns } from '../src/diff/__fixtures__/import-pairs.js';
import { buildScoreRun } from '../src/diff/__fixtures__/score-runs.js';
import { diffRuns } from '../src/diff/diff-runs.js';
import { readDiscordantPairs } from '../src/diff/read-pairs.js';
import { fmtChange } from '../src/diff/text-table.js';
import type { DiffReport } from '../src/diff/types.js';
import { EVIL_VALUE, viewStore } from '../src/view/__fixtures__/view-store.js';
import { serveView } from '../src/view/serve.js';
import { viewDiff, viewRun } from '../src/view/view-diff.js';
import { sweep } from '../src/executor/sweep.js';
import { parseSweepSpec } from '../src/spec/sweep-spec.js';
import { seedFor } from '../src/spec/seed-for.js';
import { createRun } from '../src/store/create-run.js';
import type { EpisodeRow } from '../src/store/episode-row.js';
import { haveChromium, openBrowser, type BrowserSession } from './browser.js';

/** Counts the pixels of a PNG that differ from its top-left pixel, decoded by the browser itself. */
async function inkedPixels(s: BrowserSession, png: Buffer): Promise<{ width: number; inked: number; colours: number }> {
  const page = await s.context.newPage();
  try {
    // Browser-side code as text: this file is compiled without the DOM library.
    const js = `(async () => {
      const img = new Image();
      img.src = 'data:image/png;base64,${png.toString('base64')}';
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext('2d');
      ctx.drawImage(img, 0, 0);
      const d = ctx.getImageData(0, 0, img.width, img.height).data;
      let inked = 0;
      const colours = new Set();
      for (let i = 0; i < d.length; i += 4) {
        if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) inked++;
        if (colours.size < 1000) colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
      }
      return { width: img.width, inked, colours: colours.size };
    })()`;
    return (await page.evaluate(js)) as { width: number; inked: number; colours: number };
  } finally {
    await page.close();
  }
}

// Skipped only outside CI when the browser is missing; in CI (CI=true) a missing browser fails.
describe.skipIf(!haveChromium() && process.env['CI'] !== 'true')('the view page in Chromium', () => {
  let store: string;
  let report: DiffReport;
  let diffFile: string;
  let s: BrowserSession;
  let dialogs: string[];
  beforeAll(async () => {
    store = await viewStore();
    report = await diffRuns(store, '#3', '#2');
    diffFile = join(store, 'diff.html');
    await writeFile(diffFile, (await viewDiff(store, '#3', '#2')).html);
    await writeFile(join(store, 'run.html'), (await viewRun(store, '#1')).html);
    s = await openBrowser();
    dialogs = [];
    s.page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    // Offline: the page must load with the network off.
    await s.context.setOffline(true);
    await s.page.goto(pathToFileURL(diffFile).href);
    await s.page.waitForSelector('html[data-ready="true"]');
  }, 60_000); // three runs, two pages and Chromium's start: over 10 s when the suite runs two files at once (it timed out so once, fifth session of 2026-12-06)
  afterAll(async () => {
    await s?.close();
  });

  it('loads offline from file:// with no request but itself and no console error', () => {
    expect(s.requests).toEqual([pathToFileURL(diffFile).href]);
    expect(s.errors).toEqual([]);
  });

  it('shows the verdict word and its sentence', async () => {
    const text = (await s.page.textContent('#verdict')) ?? '';
    expect(text).toBe(`${report.verdict} ${report.sentence}`);
  });

  it('clicking a condition shows its discordant pairs, with their seeds', async () => {
    const pairs = await readDiscordantPairs(store, report);
    const group = pairs.groups[0];
    expect(group?.fall).toBe(10);
    const row = s.page.locator('tr.cond').first();
    await row.click();
    await s.page.waitForSelector('#pairs tr.pair');
    expect(await s.page.locator('#pairs tr.pair').count()).toBe(group?.pairs.length);
    const panel = (await s.page.textContent('#pairs')) ?? '';
    expect(panel).toContain(group?.condition);
    expect(panel).toContain('failed: 0 rise, 10 fall');
    for (const p of group?.pairs ?? []) expect(panel).toContain(p.seed);
    expect(await row.getAttribute('class')).toContain('selected');
    // The meta is there, pretty-printed, behind a details element.
    await s.page.locator('#pairs details summary').first().click();
    const meta = (await s.page.locator('#pairs pre.meta').first().textContent()) ?? '';
    expect(meta).toContain('"which": "A"');
    // A line of the forest plot selects its condition too.
    await s.page.locator('g.forest-row').nth(2).click();
    expect(await s.page.textContent('#pairs h3')).toBe(report.rows[2]?.condition);
  });

  it('filters the table by text and by verdict, and sorts by a column', async () => {
    await s.page.fill('#filter', 'slack 8');
    const visible = async (): Promise<number> => s.page.locator('tr.cond:visible').count();
    const want = report.rows.filter((r) => `${r.condition} ${r.event}`.toLowerCase().includes('slack 8')).length;
    expect(want).toBe(2);
    expect(await visible()).toBe(want);
    expect(await s.page.textContent('#shown')).toBe(String(want));
    // The forest's lines follow the filter (left in the notes of 2026-12-06: they all stayed).
    expect(await s.page.locator('g.forest-row:visible').count()).toBe(want);
    await s.page.fill('#filter', '');
    expect(await s.page.locator('g.forest-row:visible').count()).toBe(report.rows.length);
    await s.page.selectOption('#verdict-filter', 'lower');
    expect(await visible()).toBe(report.rows.filter((r) => r.verdict === 'lower').length);
    expect(await s.page.locator('g.forest-row:visible').count()).toBe(report.rows.filter((r) => r.verdict === 'lower').length);
    await s.page.selectOption('#verdict-filter', '');
    expect(await visible()).toBe(report.rows.length);
    await s.page.click('th[data-key="change"]');
    const changes = await s.page.locator('tr.cond').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-change'))));
    expect(changes).toEqual([...changes].sort((a, b) => a - b));
    expect(changes[0]).toBe(Math.min(...report.rows.map((r) => r.change)));
  });

  // Left in the notes of 2026-12-06: the sort headers and the rows could not be reached from the
  // keyboard, and nothing said how the table was sorted.
  // A review (evening of 2026-12-06): a label holding U+202E reversed the page's words after it; the page
  // shows bidirectional controls as code points, and so does its script in the pairs panel it builds.
  it('shows a label\'s bidirectional controls as code points in the pairs panel too', async () => {
    const { buildRun } = await import('../src/diff/__fixtures__/build-run.js');
    const bidi = await tempStore();
    const spec = ['target_id = "bidi"', 't_unit = "turns"', 'replicates = 16', '[axes.name]', 'type = "categorical"', 'values = ["\u202Eright-to-left", "plain"]', ''].join('\n');
    await buildRun(bidi, { specText: spec, outcomes: () => 'passed', now: new Date('2026-11-06T10:00:00Z') });
    await buildRun(bidi, { specText: spec, outcomes: (c, r) => (c === 0 && r < 9 ? 'failed' : 'passed'), now: new Date('2026-11-06T11:00:00Z') });
    const file = join(bidi, 'bidi.html');
    await writeFile(file, (await viewDiff(bidi, '#2', '#1')).html);
    const page = await s.context.newPage();
    try {
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector('html[data-ready="true"]');
      await page.locator('tr.cond').first().click();
      await page.waitForSelector('#pairs tr.pair');
      const heading = (await page.textContent('#pairs h3')) ?? '';
      expect(heading).toBe('name \u27E8U+202E\u27E9right-to-left');
      expect(await page.locator('tr.cond').first().getAttribute('class')).toContain('selected');
      const body = await page.innerText('body'); // what is rendered (not the script and data elements)
      expect(body).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
    } finally {
      await page.close();
      await rm(bidi, { recursive: true, force: true });
    }
  });

  // A review (evening of 2026-12-06): the condition column sorted numeric axis values as text (slack 16
  // before slack 2), and a numeric column's "-" came first in descending order.
  it('sorts the condition column in natural order, and a column\'s missing values last both ways', async () => {
    const { buildRun } = await import('../src/diff/__fixtures__/build-run.js');
    const natural = await tempStore();
    const spec = ['target_id = "natural"', 't_unit = "turns"', 'replicates = 12', '[axes.slack]', 'type = "continuous"', 'values = [32, 2, 16, 4, 8]', ''].join('\n');
    // slack 8 (condition 4) has no outcome in run A: its rates and change show "-".
    await buildRun(natural, { specText: spec, outcomes: (c, r) => (c === 4 ? null : r % 3 === 0 ? 'failed' : 'passed'), now: new Date('2026-11-06T10:00:00Z') });
    await buildRun(natural, { specText: spec, outcomes: (c, r) => (r % (c + 2) === 0 ? 'failed' : 'passed'), now: new Date('2026-11-06T11:00:00Z') });
    const file = join(natural, 'natural.html');
    await writeFile(file, (await viewDiff(natural, '#2', '#1')).html);
    const page = await s.context.newPage();
    try {
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector('html[data-ready="true"]');
      const order = async () => page.locator('#conditions tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-condition')));
      await page.locator('#conditions th[data-key="condition"]').click();
      expect(await order()).toEqual(['slack 2', 'slack 4', 'slack 8', 'slack 16', 'slack 32']);
      for (const _ of [0, 1]) {
        await page.locator('#conditions th[data-key="change"]').click();
        expect((await order()).at(-1)).toBe('slack 8');
      }
    } finally {
      await page.close();
      await rm(natural, { recursive: true, force: true });
    }
  });

  // A review (2026-12-07): a condition with no pair at all (every episode of run B without an outcome: a
  // target that threw) read "No discordant pairs: every pair agrees on failed." and its discordance 0.000.
  it('says a condition with no pair both runs hold an outcome for has none, and why; its discordance is "-"', async () => {
    const { buildRun } = await import('../src/diff/__fixtures__/build-run.js');
    const thrown = await tempStore();
    const spec = ['target_id = "thrown"', 't_unit = "turns"', 'replicates = 12', '[axes.slack]', 'type = "continuous"', 'values = [4, 8]', ''].join('\n');
    await buildRun(thrown, { specText: spec, outcomes: (_c, r) => (r % 3 === 0 ? 'failed' : 'passed'), now: new Date('2026-11-06T10:00:00Z') });
    // Run B: every episode of slack 4 threw (no outcome, an error).
    await buildRun(thrown, { specText: spec, outcomes: (c, r) => (c === 0 ? null : r % 2 === 0 ? 'failed' : 'passed'), extra: (_v, c) => (c === 0 ? { outcome: null, error: 'boom' } : {}), now: new Date('2026-11-06T11:00:00Z') });
    const view = await viewDiff(thrown, '#2', '#1', { events: ['failed'] });
    const row = view.report.rows.find((r) => r.condition === 'slack 4');
    expect(row?.counts?.n).toBe(0); // as diff --json has it
    const file = join(thrown, 'thrown.html');
    await writeFile(file, view.html);
    const page = await s.context.newPage();
    try {
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector('html[data-ready="true"]');
      const tr = page.locator('tr.cond[data-condition="slack 4"]');
      expect(await tr.locator('td').last().textContent()).toBe('-');
      await tr.click();
      await page.waitForSelector('#pairs p.none');
      const text = (await page.textContent('#pairs')) ?? '';
      expect(text).not.toContain('every pair agrees');
      expect(text).toContain('No pairs: no replicate of slack 4 has an outcome in both runs, so none can disagree on failed; 12 pairs without an outcome in one run (an error, or no score), left out of the tables.');
      // A condition with pairs that all agree still says so.
      const other = page.locator('tr.cond[data-condition="slack 8"]');
      expect(await other.locator('td').last().textContent()).not.toBe('-');
    } finally {
      await page.close();
      await rm(thrown, { recursive: true, force: true });
    }
  });

  it('sorts and opens a condition from the keyboard, and says how the table is sorted (aria-sort)', async () => {
    const head = s.page.locator('th[data-key="change"]');
    expect(await head.getAttribute('tabindex')).toBe('0');
    expect(await s.page.locator('th.sortable[aria-sort="none"]').count()).toBeGreaterThan(1);
    await head.focus();
    await s.page.keyboard.press('Enter');
    const sorted = await head.getAttribute('aria-sort');
    expect(['ascending', 'descending']).toContain(sorted);
    await s.page.keyboard.press(' ');
    expect(await head.getAttribute('aria-sort')).toBe(sorted === 'ascending' ? 'descending' : 'ascending');
    const row = s.page.locator('tr.cond').last();
    await row.focus();
    await s.page.keyboard.press('Enter');
    expect(await row.getAttribute('class')).toContain('selected');
    expect(await s.page.textContent('#pairs h3')).toBe(await row.getAttribute('data-condition'));
  });

  // Found and left by the evening session of 2026-12-06: the forest's lines were `<g tabindex="0">` inside an
  // `<svg role="img">` (whose children are presentational, so a screen reader met no line and no name), and
  // acted on Enter only, where the table's rows act on Enter and Space.
  it("opens a condition from the forest by keyboard, Enter or Space, each line a named button", async () => {
    const buttons = s.page.getByRole('button', { name: /: change [-+]?\d/ });
    expect(await buttons.count()).toBe(report.rows.length);
    const r = report.rows[1] as DiffReport['rows'][number];
    const line = s.page.locator('g.forest-row').nth(1);
    expect(await line.getAttribute('aria-label')).toBe(`${r.condition}, ${r.event}: change ${fmtChange(r.change)}, ${r.verdict}; shows its discordant pairs`);
    await line.focus();
    await s.page.keyboard.press(' ');
    expect(await s.page.textContent('#pairs h3')).toBe(r.condition);
    const other = report.rows[0] as DiffReport['rows'][number];
    await s.page.locator('g.forest-row').nth(0).focus();
    await s.page.keyboard.press('Enter');
    expect(await s.page.textContent('#pairs h3')).toBe(other.condition);
  });

  // Found and left by the evening session of 2026-12-06: the filter box hid the conditions table's rows and
  // the forest's lines, and left the Scores table whole.
  it("keeps the Scores table's rows whose condition holds the filter text", async () => {
    const scored = await tempStore();
    try {
      await buildScoreRun(scored, 'before', { now: new Date('2026-12-02T10:00:00Z') });
      await buildScoreRun(scored, 'after', { now: new Date('2026-12-02T11:00:00Z') });
      const file = join(scored, 'scores.html');
      await writeFile(file, (await viewDiff(scored, '#2', '#1')).html);
      const page = await s.context.newPage();
      try {
        await page.goto(pathToFileURL(file).href);
        await page.waitForSelector('html[data-ready="true"]');
        const all = await page.locator('tr.by-condition').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-condition') ?? ''));
        expect(all.length).toBe(6);
        await page.fill('#filter', 'Alpha');
        const kept = all.filter((c) => c.toLowerCase().includes('alpha'));
        expect(kept.length).toBe(2);
        expect(await page.locator('tr.by-condition:visible').count()).toBe(kept.length);
        expect(await page.locator('tr.cond:visible').count()).toBe(kept.length);
        // An event's name keeps every score row, as it keeps every condition's row, and a condition with
        // its event keeps that condition's (the reviews).
        await page.fill('#filter', 'fail');
        expect(await page.locator('tr.by-condition:visible').count()).toBe(6);
        await page.fill('#filter', `${kept[0] as string} failed`.toLowerCase());
        expect(await page.locator('tr.by-condition:visible').count()).toBe(1);
        expect(await page.locator('tr.cond:visible').count()).toBe(1);
        await page.fill('#filter', '');
        expect(await page.locator('tr.by-condition:visible').count()).toBe(6);
      } finally {
        await page.close();
      }
    } finally {
      await rm(scored, { recursive: true, force: true });
    }
  });

  it('shows a malicious label as text and runs none of it', async () => {
    expect(dialogs).toEqual([]);
    expect(await s.page.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(await s.page.locator('img[src="x"]').count()).toBe(0);
    const evilRow = s.page.locator('tr.cond').filter({ hasText: EVIL_VALUE }).first();
    expect(await evilRow.count()).toBe(1);
    await evilRow.click();
    expect(await s.page.textContent('#pairs h3')).toContain(EVIL_VALUE);
    expect(dialogs).toEqual([]);
    expect(s.errors).toEqual([]);
  });

  it('takes a screenshot whose pixels are not blank', async () => {
    const png = await s.page.screenshot({ fullPage: true });
    const { width, inked, colours } = await inkedPixels(s, png);
    expect(width).toBe(1280);
    expect(inked).toBeGreaterThan(10_000);
    expect(colours).toBeGreaterThan(20);
  });

  it('the run page loads offline, without console errors, and lists the episodes without an outcome', async () => {
    const page = await s.context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => (m.type() === 'error' ? errors.push(m.text()) : undefined));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(join(store, 'run.html')).href);
    await page.waitForSelector('html[data-ready="true"]');
    expect(await page.locator('#errors tbody tr').count()).toBe(3);
    await page.fill('#filter', 'slack 4');
    expect(await page.locator('#conditions tbody tr:visible').count()).toBe(2);
    expect(errors).toEqual([]);
    await page.close();
  });

  /**
   * A page of `view A B --partial --sequential --event failed` where B is still being written: replicates
   * 0-9 and 11-29 written (10 still running), `failing` of them failed; the first condition's panel opened
   * once `ready` (a selector) shows, and its text given to `check`.
   */
  async function waitingPanel(failing: readonly number[], name: string, ready: string, check: (text: string, page: import('playwright-core').Page) => Promise<void>): Promise<void> {
    const partialStore = await tempStore();
    const SPEC = `target_id = "waiting"\nt_unit = "turns"\nreplicates = 30\n\n[axes.task]\ntype = "categorical"\nvalues = ["t0"]\n`;
    const SALT = '00c0ffee00c0ffee';
    const a = await sweep({ spec: SPEC, target: async () => ({ outcome: 'passed', t: 1, meta: {} }), store: partialStore, salt: SALT, maxMde: 0.99, now: new Date(Date.UTC(2026, 0, 1)) });
    const spec = parseSweepSpec(SPEC);
    const w = await createRun(partialStore, { spec, specText: SPEC, target: 'test:waiting', salt: SALT, maxMde: 0.99, partRows: 2, now: new Date(Date.UTC(2026, 0, 1, 0, 1)) });
    const rows = [...Array(30).keys()].filter((r) => r !== 10).map((r) => ({ run_id: w.manifest.run_id, condition: 'task t0', task: 't0', replicate_index: r, seed: seedFor(SALT, r), outcome: failing.includes(r) ? 'failed' : 'passed', t: 1, score: null, error: null, meta: '{}', duration_ms: 1 }) as EpisodeRow);
    await w.append(rows);
    const file = join(partialStore, name);
    await writeFile(file, (await viewDiff(partialStore, a.run_id, w.manifest.run_id, { partial: true, sequential: true, events: ['failed'] })).html);
    const page = await s.context.newPage();
    try {
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector('html[data-ready="true"]');
      await page.locator('tr.cond').first().click();
      await page.waitForSelector(ready);
      await check((await page.textContent('#pairs')) ?? '', page);
    } finally {
      await page.close();
      await w.close('interrupted');
    }
  }

  // The night of 2026-12-06: under --sequential a run still being written is read on its settled pairs;
  // the pairs panel lists those and says how many discordant pairs wait (it listed every pair written).
  it('under --sequential, a run still being written: the panel counts the pairs the row tested and says how many wait', async () => {
    // 2 and 5 fail, and 20, 21 and 22 past the gap.
    await waitingPanel([2, 5, 20, 21, 22], 'waiting.html', '#pairs table.pairs', async (text, page) => {
      expect(text).toContain('failed: 2 rise, 0 fall; 3 rise, 0 fall written after the first replicate a run lacks wait for a later read (--sequential)');
      expect(await page.locator('#pairs tr.pair').count()).toBe(2);
    });
  });

  // A review: when every discordant pair of a condition was written past the gap, the panel counted them as
  // waiting and then said "No discordant pairs: every pair agrees on failed".
  it('under --sequential, a condition whose only discordant pairs wait does not say every pair agrees', async () => {
    // Only 20, 21 and 22, past the gap, fail.
    await waitingPanel([20, 21, 22], 'waiting-only.html', '#pairs p.none', async (text) => {
      expect(text).toContain('failed: 0 rise, 0 fall; 3 rise, 0 fall written after the first replicate a run lacks wait for a later read (--sequential)');
      expect(text).not.toContain('every pair agrees');
      expect(text).toContain('No discordant pair among the 10 pairs tested');
    });
  });

  // A review (fifth session of 2026-12-06): a page written with --limit 0 said "failed: 0 rise, 10 fall
  // (the first 0 listed)" and then "No discordant pairs: every pair agrees on failed".
  it('with --limit 0 says none are listed, not that none disagree', async () => {
    const file = join(store, 'limit0.html');
    await writeFile(file, (await viewDiff(store, '#3', '#2', { limit: 0 })).html);
    const page = await s.context.newPage();
    try {
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector('html[data-ready="true"]');
      await page.locator('tr.cond').first().click();
      await page.waitForSelector('#pairs p.none');
      const text = (await page.textContent('#pairs')) ?? '';
      expect(text).toContain('failed: 0 rise, 10 fall (the first 0 listed)');
      expect(text).toContain('None listed (--limit 0): the counts above are the discordant pairs.');
      expect(text).not.toContain('every pair agrees');
    } finally {
      await page.close();
    }
  });

  it('served, it reads a condition\'s pairs from the store when clicked', async () => {
    await s.context.setOffline(false);
    const server = await serveView(store, '#3', '#2', { limit: 5 });
    const page = await s.context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => (m.type() === 'error' ? errors.push(m.text()) : undefined));
    try {
      await page.goto(server.url);
      await page.waitForSelector('html[data-ready="true"]');
      await page.locator('tr.cond').first().click();
      await page.waitForSelector('#pairs tr.pair');
      expect(await page.locator('#pairs tr.pair').count()).toBe(5);
      expect(await page.textContent('#pairs')).toContain('failed: 0 rise, 10 fall (the first 5 listed)');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await server.close();
    }
  });

  it('served, a read that ends after another condition was clicked does not replace that condition\'s pairs', async () => {
    await s.context.setOffline(false);
    const server = await serveView(store, '#3', '#2', { limit: 5 });
    const page = await s.context.newPage();
    const rows = page.locator('tr.cond');
    try {
      await page.goto(server.url);
      await page.waitForSelector('html[data-ready="true"]');
      const [first, second] = [await rows.nth(0).getAttribute('data-condition'), await rows.nth(1).getAttribute('data-condition')];
      // The second condition read once (then cached); the first's next read held until the second is shown.
      await rows.nth(1).click();
      await page.waitForSelector('#pairs .group');
      let release: () => void = () => undefined;
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/pairs?*', async (route) => {
        await held;
        await route.continue();
      });
      await rows.nth(0).click();
      await page.waitForSelector('#pairs p.none:has-text("reading the pairs of")');
      await rows.nth(1).click();
      expect(await page.textContent('#pairs h3')).toBe(second);
      release();
      // The held read ended: the panel is no longer busy (or, as before, shows the first condition).
      await page.locator('#pairs[aria-busy="false"]').or(page.locator('#pairs h3', { hasText: first as string })).waitFor();
      // Before: the first condition's pairs, under the second's selected row.
      expect(await page.textContent('#pairs h3')).toBe(second);
      expect(await page.getAttribute('tr.cond.selected', 'data-condition')).toBe(second);
      // Its read was kept: clicked again, it is shown at once.
      await page.unroute('**/pairs?*');
      await rows.nth(0).click();
      expect(await page.textContent('#pairs h3')).toBe(first);
    } finally {
      await page.close();
      await server.close();
    }
  });
});

// Two imports pair by sample identity: run B may hold a sample at another stored index than run A. The
// page's pairs read `A/B` then, as `diff --show pairs` does (it showed A's index alone).
describe.skipIf(!haveChromium() && process.env['CI'] !== 'true')('the view page of two imports in Chromium', () => {
  let dir: string;
  let s: BrowserSession;
  beforeAll(async () => {
    dir = await tempStore();
    const store = join(dir, 'store');
    const { a, b } = await importPairRuns(dir, store);
    const file = join(dir, 'imports.html');
    await writeFile(file, (await viewDiff(store, a, b, { events: EVENTS })).html);
    s = await openBrowser();
    await s.context.setOffline(true);
    await s.page.goto(pathToFileURL(file).href);
    await s.page.waitForSelector('html[data-ready="true"]');
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("shows a pair's replicate as A/B where run B holds the sample at another index", async () => {
    await s.page.locator('tr.cond').first().click();
    await s.page.waitForSelector('#pairs tr.pair');
    // Doc 9 is at index 9 in A and at 8 in B (doc 4 is absent from B); doc 1 is at index 1 in both.
    const replicates = await s.page.locator('#pairs tr.pair td:nth-child(2)').allTextContents();
    expect(replicates).toContain('9/8');
    expect(replicates).toContain('1');
    const summaries = await s.page.locator('#pairs details summary').allTextContents();
    expect(summaries.some((t) => t.startsWith('replicate 9/8, seed '))).toBe(true);
    expect(await s.page.textContent('#pairs')).toContain('A/B: run B holds the sample at another stored index');
    expect(s.errors).toEqual([]);
  });
});
