import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { diffRuns } from '../diff/diff-runs.js';
import { EVIL_ERROR, EVIL_META, EVIL_VALUE, PRIVATE_ANSWER, viewStore } from './__fixtures__/view-store.js';
import { PAGE_JS } from './assets.js';
import { escapeAttribute, escapeHtml, jsonForScript } from './escape.js';
import { fmtChange } from '../diff/text-table.js';
import { serveView } from './serve.js';
import { viewDiff, viewRun } from './view-diff.js';
import { capture } from '../cli/__fixtures__/capture.js';


/** The page with its one JSON data element and its inline script taken out (both checked separately). */
function markupOf(html: string): string {
  return html.replace(/<script type="application\/json" id="poisson-data">[\s\S]*?<\/script>/, '').replace(/<script>[\s\S]*?<\/script>/, '');
}

describe('the page script', () => {
  it('parses as JavaScript (a syntax error would leave the page blank; the browser tests skip without Chromium)', () => {
    expect(() => new Function(PAGE_JS)).not.toThrow();
  });
});

describe('escaping', () => {
  it('escapes markup in text and keeps JSON from ending its script element', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    const j = jsonForScript({ s: '</script><!-- & \u2028' });
    expect(j).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(j)).toEqual({ s: '</script><!-- & \u2028' });
  });
});

// The fifth session of 2026-12-04: a condition with no pair graded in both runs showed NaN rates on the
// page (the text diff shows "-"), and the page said nothing of the pairs one run holds alone or of a
// partial run, which the text diff states first.
describe('renderDiffPage states what the text diff states', () => {
  const runOf = (id: string, outcome: (c: string, r: number) => string | null, reps: number) => ({
    manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, axes: { slack: { type: 'continuous', values: [] } } },
    rows: ['slack 4', 'slack 8'].flatMap((condition) => Array.from({ length: reps }, (_, r) => ({ condition, replicate_index: r, seed: 1000 + r, outcome: outcome(condition, r), t: 1, slack: Number(condition.split(' ')[1]) }))),
  });
  it('shows "-" for a rate no pair gives, never NaN; and the coverage and partial lines', async () => {
    const { diffEpisodes } = await import('../diff/diff-episodes.js');
    const { renderDiffPage } = await import('./diff-page.js');
    const a = runOf('a', (c, r) => (c === 'slack 8' ? null : r % 2 === 0 ? 'passed' : 'failed'), 12);
    const b = runOf('b', (_c, r) => (r % 3 === 0 ? 'failed' : 'passed'), 12);
    const report = diffEpisodes(a, b, { events: ['failed'] });
    expect(report.rows.find((r) => r.condition === 'slack 8')?.before).toBeNaN();
    const unmatched = { before: 0, after: 8, compared: 24 };
    const partial = [{ run_id: 'b', name: 'run b', status: 'interrupted', pairs: 24, design: 32, complete: false }];
    const html = renderDiffPage({ report: { ...report, unmatched, partial }, pairs: null, heatmaps: [] });
    expect(markupOf(html)).not.toContain('NaN');
    expect(html).toMatch(/<tr class="cond" data-condition="slack 8"[^>]*><td>slack 8<\/td><td>failed<\/td><td class="num">0<\/td><td class="num">[^<]*<\/td><td class="num">[^<]*<\/td><td class="num">-<\/td><td class="num">-<\/td>/);
    expect(html).toContain('<b>coverage</b> 24 (condition, replicate) pairs are in both runs and compared; 8 of run b have no partner in the other run and are not compared');
    expect(html).toContain('<b>partial</b> run b (&quot;run b&quot;) is interrupted and holds 24 of the 32 (condition, replicate) pairs of its design; the figures use only the pairs held; reading a run before it ends is a look: read this and every later look with diff --sequential (anytime-valid p-values); a fixed-n reading acted on (the run stopped, resumed or extended because of it) overstates the evidence, even if the finished runs are then read with --sequential.');
  });
  // A review (first session of 2026-12-06's evening): the page's fragility line had lost its count and
  // "would change the word", its tests line the inferred events, the m planned and the fix, its truncated
  // line what it counts, and its discordance line "observed up to" and the share's three decimals.
  it('shows the fragility, truncated, tests and discordance lines word for word as the text diff prints them', async () => {
    const { diffEpisodes } = await import('../diff/diff-episodes.js');
    const { formatDiffText } = await import('../diff/format-text.js');
    const { renderDiffPage } = await import('./diff-page.js');
    const planned = (id: string, outcome: (c: string, r: number) => string | null) => {
      const r = runOf(id, outcome, 40);
      return { ...r, manifest: { ...r.manifest, conditions: ['slack 4', 'slack 8'] } };
    };
    const a = planned('a', (c, r) => (r % 5 === 0 ? 'truncated' : r < 20 ? 'passed' : 'failed'));
    const b = planned('b', (c, r) => (r % 5 === 0 ? 'truncated' : r < 12 || (c === 'slack 8' && r % 7 === 1) ? 'passed' : 'failed'));
    const report = diffEpisodes(a, b, { discordance: 0.3 });
    expect(report.fragility.count).not.toBeNull();
    expect(report.events_inferred).toBe(true);
    const text = formatDiffText(report).split('\n');
    const html = renderDiffPage({ report, pairs: null, heatmaps: [] });
    for (const label of ['fragility', 'truncated', 'tests', 'discordance']) {
      const l = text.find((x) => x.startsWith(`${label} `));
      expect(l, label).toBeDefined();
      expect(html).toContain(`<div><b>${label}</b> ${escapeHtml((l as string).replace(/^\S+\s+/, ''))}</div>`);
    }
    expect(html).toMatch(/<b>fragility<\/b> \d+ outcomes? would change the word: /);
    expect(html).toContain('given 0.300 to the diff (--discordance)');
  });
  // A review (fifth session of 2026-12-05): an unpaired diff (two salts) showed 12 in its "pairs" column,
  // the before run's episodes: the runs have no pairs; the page now shows each run's episodes.
  /** A of 12 episodes against B of 9 on another salt (unpaired), and B of 12 on A's salt (paired). */
  const unpairedRuns = () => {
    const a = runOf('a', (_c, r) => (r % 2 === 0 ? 'passed' : 'failed'), 12);
    const b = { ...runOf('b', (_c, r) => (r % 3 === 0 ? 'failed' : 'passed'), 9), manifest: { ...runOf('b', () => null, 0).manifest, salt: 'other' } };
    return { a, b, pairedB: runOf('b', (_c, r) => (r % 3 === 0 ? 'failed' : 'passed'), 12) };
  };
  it('shows each run\'s episodes, not a number of pairs, in an unpaired diff', async () => {
    const { diffEpisodes } = await import('../diff/diff-episodes.js');
    const { renderDiffPage } = await import('./diff-page.js');
    const { a, b } = unpairedRuns();
    const report = diffEpisodes(a, b, { events: ['failed'] });
    expect(report.method.paired).toBe(false);
    const html = renderDiffPage({ report, pairs: null, heatmaps: [] });
    expect(html).toMatch(/<tr class="cond" data-condition="slack 4"[^>]*><td>slack 4<\/td><td>failed<\/td><td class="num">12 \/ 9<\/td><td class="num">-<\/td><td class="num">-<\/td>/);
    expect(html).toContain('<th data-key="n" class="sortable num">episodes (before / after)</th>');
  });

  // The page's fixed hints spoke of discordant pairs also where the runs are not paired ("Click a line ...
  // for its discordant pairs", "The seeds whose event happened in one run only"): they have none.
  it('does not promise discordant pairs in an unpaired diff, and says why there are none', async () => {
    const { diffEpisodes } = await import('../diff/diff-episodes.js');
    const { renderDiffPage } = await import('./diff-page.js');
    const { a, b, pairedB } = unpairedRuns();
    const unpaired = diffEpisodes(a, b, { events: ['failed'] });
    const markup = markupOf(renderDiffPage({ report: unpaired, pairs: null, heatmaps: [] }));
    expect(markup).not.toContain('discordant pairs.</p>');
    expect(markup).not.toContain('The seeds whose event happened in one run only');
    expect(markup).toContain('<div id="pairs"><p class="none">None: the runs are not paired.</p></div>');
    expect(markup).toContain(`<p class="note">Not paired: ${escapeHtml(unpaired.method.unpaired_reason as string)}. Each line and row compares the two runs&#39; rates; no episode of one run is paired with one of the other, so there are no discordant pairs to show.</p>`);
    // Paired runs keep the hints.
    const paired = renderDiffPage({ report: diffEpisodes(a, pairedB, { events: ['failed'] }), pairs: null, heatmaps: [] });
    expect(paired).toContain('<p class="note">Click a line, or a row of the table below, for its discordant pairs.</p>');
    expect(paired).toContain('The seeds whose event happened in one run only');
    expect(paired).toContain('<div id="pairs"><p class="none">Click a condition.</p></div>');
  });
});

describe('viewDiff of a run extended since: the report diffRuns gives, with its coverage', () => {
  it('carries unmatched as diffRuns does, and the page says it', async () => {
    const { tempDir, removeDir } = await import('../__fixtures__/helpers.js');
    const { sweep } = await import('../executor/sweep.js');
    const { extend } = await import('../executor/resume.js');
    const dir = await tempDir('prove-view-extended-');
    try {
      const spec = 'target_id = "v"\nt_unit = "turns"\nreplicates = 12\n\n[axes.slack]\ntype = "continuous"\nvalues = [4, 8]\n';
      const coin = (c: { seed: number }) => ({ outcome: c.seed % 2 === 0 ? 'passed' : 'failed', t: 1 });
      const a = await sweep({ spec, target: coin, store: dir, salt: 's', maxMde: 0.99, now: new Date('2026-11-06T10:00:00Z') });
      const b = await sweep({ spec, target: coin, store: dir, salt: 's', maxMde: 0.99, now: new Date('2026-11-06T11:00:00Z') });
      await extend({ store: dir, ref: b.run_id, target: coin, replicates: 2 });
      const report = await diffRuns(dir, a.run_id, b.run_id);
      expect(report.unmatched).toEqual({ before: 0, after: 4, compared: 24 });
      const view = await viewDiff(dir, a.run_id, b.run_id);
      expect(JSON.parse(JSON.stringify(view.report))).toEqual(JSON.parse(JSON.stringify(report)));
      expect(view.html).toContain('<b>coverage</b> 24 (condition, replicate) pairs are in both runs and compared; 4 of');
    } finally {
      await removeDir(dir);
    }
  });
});

describe('viewDiff', () => {
  let store: string;
  beforeAll(async () => {
    store = await viewStore();
  });

  it('writes the page from the same report diffRuns returns: verdict, sentence, every row, a forest line per row', async () => {
    // A review (2026-12-07): a string limit read "discordantPairs: limit must be ..., got 3".
    await expect(viewDiff(store, '#3', '#2', { limit: '3' as never })).rejects.toThrow(new RangeError('viewDiff: limit must be an integer >= 0, got "3"'));
    await expect(viewDiff(store, '#3', '#2', { q: '0.1' as never })).rejects.toThrow(new RangeError('viewDiff: options.q must be a number in (0, 1), got "0.1"'));
    const view = await viewDiff(store, '#3', '#2');
    const report = await diffRuns(store, '#3', '#2');
    expect(JSON.parse(JSON.stringify(view.report))).toEqual(JSON.parse(JSON.stringify(report)));
    expect(report.verdict).toBe('significant change');
    expect(view.html).toContain(`<p class="verdict" id="verdict"><span class="word significant-change">significant change</span> ${escapeHtml(report.sentence)}</p>`);
    expect(view.html.match(/<tr class="cond" /g)).toHaveLength(report.rows.length);
    expect(view.html.match(/<g class="forest-row" /g)).toHaveLength(report.rows.length);
    // The heatmap is report's SVG, inlined as a data: image.
    expect(view.html).toMatch(/<img alt="heatmap of the change in failed" src="data:image\/svg\+xml;base64,/);
    // The counted row is coloured better (failed fell), by the event's direction.
    expect(view.html).toMatch(/<td class="num better">-0\.625<\/td>/);
  });

  it('is self-contained: no external reference, and a policy that loads nothing', async () => {
    const { html } = await viewDiff(store, '#3', '#2');
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; img-src data:; style-src &#39;unsafe-inline&#39;; script-src &#39;unsafe-inline&#39;; connect-src &#39;none&#39;;`);
    expect(html).not.toMatch(/<link\b|<script\s+src|\bsrc="(?!data:)|url\(|@import|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it('escapes a malicious condition label, meta and error everywhere in the page', async () => {
    const { html } = await viewDiff(store, '#3', '#1', { limit: 50 });
    const markup = markupOf(html);
    expect(markup).toContain(escapeHtml(EVIL_VALUE));
    expect(markup).not.toContain(EVIL_VALUE);
    expect(html.match(/<script/g)).toHaveLength(2); // the data and the page's own script, nothing else
    expect(html).not.toContain(EVIL_META);
    expect(html).not.toContain('<b onmouseover');
    const run = await viewRun(store, '#1');
    expect(run.html).toContain(escapeHtml(`${EVIL_ERROR} #0`));
    expect(run.html).not.toContain(EVIL_ERROR);
    expect(run.html).not.toContain(EVIL_META);
    expect(run.html).not.toContain(EVIL_VALUE);
  });

  it('writes no private detail by default; the cached answer only with private', async () => {
    const plain = await viewDiff(store, '#3', '#2');
    expect(plain.html).not.toContain(PRIVATE_ANSWER);
    expect(plain.pairs?.private).toBe(false);
    const priv = await viewDiff(store, '#3', '#2', { private: true });
    expect(priv.html).toContain(PRIVATE_ANSWER);
    expect(priv.pairs?.groups.some((g) => g.pairs.some((p) => p.after.answer === PRIVATE_ANSWER))).toBe(true);
    // The CLI likewise.
    const c = capture(store);
    expect(await runCli(['--store', store, 'view', '#3', '#2', '--out', 'plain.html'], c.io)).toBe(0);
    expect(await readFile(join(store, 'plain.html'), 'utf8')).not.toContain(PRIVATE_ANSWER);
    expect(await runCli(['--store', store, 'view', '#3', '#2', '--out', 'private.html', '--private'], c.io)).toBe(0);
    expect(await readFile(join(store, 'private.html'), 'utf8')).toContain(PRIVATE_ANSWER);
  });

  it('embeds the discordant pairs of every condition, at most limit per condition x event', async () => {
    const view = await viewDiff(store, '#3', '#2', { limit: 4 });
    const data = JSON.parse((view.html.match(/<script type="application\/json" id="poisson-data">([\s\S]*?)<\/script>/) as RegExpMatchArray)[1] as string) as {
      pairs: { groups: { condition: string; rise: number; fall: number; truncated: boolean; pairs: unknown[] }[] };
    };
    const first = data.pairs.groups[0];
    expect(first).toMatchObject({ rise: 0, fall: 10, truncated: true });
    expect(first?.pairs).toHaveLength(4);
    expect(JSON.stringify(data.pairs)).toEqual(JSON.stringify(view.pairs));
  });

  it('the run page shows outcomes by condition, the episodes without an outcome with their errors, and the manifest', async () => {
    const { html, run } = await viewRun(store, '#1');
    expect(run.matching).toBe(3);
    expect(html.match(/<pre>&lt;b onmouseover=alert\(2\)&gt;boom&lt;\/b&gt; #\d<\/pre>/g)).toHaveLength(3);
    for (const k of ['max_mde', 'salt', 'spec_sha256', 'Provenance', 'Gate', 'Design', 'command']) expect(html).toContain(k);
    expect(html).toContain(`<th>salt</th><td>${run.manifest.salt}</td>`);
    expect(html.match(/<tr data-condition=/g)).toHaveLength(4);
  });

  it('the run page says why an episode may have no outcome truly for a run and for an import (an error, or no score), not "crashed or timed out"', async () => {
    const { html } = await viewRun(store, '#1');
    expect(html).toContain('3 episodes have no outcome (an error, or no score)');
    expect(html).not.toContain('crashed or timed out');
    const { tempDir, removeDir } = await import('../__fixtures__/helpers.js');
    const { makeTruth, writeInspect } = await import('../import/__fixtures__/harness-gen.js');
    const { importRun } = await import('../import/import-run.js');
    const dir = await tempDir('prove-view-import-');
    try {
      const imported = join(dir, 'store');
      const r = await importRun(imported, { format: 'inspect', files: await writeInspect(join(dir, 'logs'), makeTruth(20), 0, false) });
      const page = await viewRun(imported, r.runs[0]?.run_id as string);
      expect(page.html).toContain('2 episodes have no outcome (an error, or no score)');
      expect(page.html).not.toContain('crashed or timed out');
      // Where it came from, as inspect's `imported` line says it (the page named only its target id; a review).
      const files = page.run.manifest.import?.files ?? [];
      expect(files.length).toBeGreaterThan(0);
      expect(page.html).toContain(`<p class="note" id="imported"><b>imported</b> inspect 0.3.95, model mockllm/model, outcome from match; `);
      for (const f of files) expect(page.html).toContain(`${escapeHtml(f.name)} (sha256 ${f.sha256.slice(0, 12)}…)`);
      expect(page.html).toContain('<th>import</th>');
    } finally {
      await removeDir(dir);
    }
  });

  it('view exits 2 for a bad --out or --port without --serve, and writes nothing', async () => {
    const c = capture(store);
    expect(await runCli(['--store', store, 'view', '#3', '#2', '--out', 'page.txt'], c.io)).toBe(2);
    expect(c.err()).toBe('error: --out page.txt must name an .html file, e.g. --out diff.html.\n');
    const d = capture(store);
    expect(await runCli(['--store', store, 'view', '#3', '--port', '8080'], d.io)).toBe(2);
    expect(d.err()).toBe('error: --port is the port of --serve; add --serve, or leave out --port.\n');
    await expect(readFile(join(store, 'page.txt'))).rejects.toThrow();
  });
});

describe('serveView', () => {
  let store: string;
  beforeAll(async () => {
    store = await viewStore();
  });

  it('serves the page on 127.0.0.1 and reads one condition\'s pairs on demand', async () => {
    const server = await serveView(store, '#3', '#2', { limit: 3 });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const page = await (await fetch(server.url)).text();
      expect(page).toContain('connect-src &#39;self&#39;');
      expect(page).toContain('"serve":true,');
      expect(page).toContain('"pairs":null');
      const report = await diffRuns(store, '#3', '#2');
      const condition = report.rows[0]?.condition as string;
      const res = await fetch(`${server.url}pairs?condition=${encodeURIComponent(condition)}`);
      expect(res.status).toBe(200);
      const pairs = (await res.json()) as { groups: { condition: string; fall: number; pairs: { before: { meta: unknown } }[] }[]; private: boolean };
      expect(pairs.groups.map((g) => g.condition)).toEqual([condition]);
      expect(pairs.groups[0]?.fall).toBe(10);
      expect(pairs.groups[0]?.pairs).toHaveLength(3);
      expect(pairs.groups[0]?.pairs[0]?.before.meta).toMatchObject({ which: 'A', c: 0 });
      expect(JSON.stringify(pairs)).not.toContain(PRIVATE_ANSWER);
      expect((await fetch(`${server.url}pairs?condition=nope`)).status).toBe(404);
      // Another Host (a page of another site rebinding its name to 127.0.0.1) is refused.
      const status = await new Promise<number | undefined>((resolve, reject) => {
        request(server.url, { headers: { host: 'evil.example:80' } }, (res) => {
          res.resume();
          resolve(res.statusCode);
        })
          .on('error', reject)
          .end();
      });
      expect(status).toBe(403);
      // A review (fifth session of 2026-12-06): a request target new URL cannot read (`GET http://[`)
      // threw in the handler and ended the server. It answers 400 and goes on serving.
      const { connect } = await import('node:net');
      const port = new URL(server.url).port;
      const raw = await new Promise<string>((resolve, reject) => {
        const sock = connect(Number(port), '127.0.0.1', () => sock.write(`GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`));
        let text = '';
        sock.on('data', (d) => (text += d.toString()));
        sock.on('end', () => resolve(text));
        sock.on('error', reject);
      });
      expect(raw).toMatch(/^HTTP\/1\.1 400 /);
      expect((await fetch(server.url)).status).toBe(200);
    } finally {
      await server.close();
    }
    await expect(fetch(server.url)).rejects.toThrow();
  });

  // A review (fifth session of 2026-12-06): `view A --serve --limit 1` listed every episode without an
  // outcome, and its page said "the first 1 ... are shown".
  it('serves a run\'s page with --limit as view A --out writes it', async () => {
    const server = await serveView(store, '#1', null, { limit: 1 });
    try {
      const page = await (await fetch(server.url)).text();
      expect(page).toBe((await viewRun(store, '#1', { limit: 1 })).html);
      expect(page).not.toBe((await viewRun(store, '#1')).html);
    } finally {
      await server.close();
    }
  });

  it('view --serve prints its URL and stops cleanly when the signal aborts', async () => {
    const controller = new AbortController();
    const c = capture(store, controller.signal);
    const done = runCli(['--store', store, 'view', '#1', '--serve'], c.io);
    const [, url] = await c.until(/serving (http:\/\/127\.0\.0\.1:\d+\/) /);
    const page = await (await fetch(url as string)).text();
    expect(page).toContain('Episodes without an outcome');
    controller.abort();
    expect(await done).toBe(0);
    expect(c.out()).toMatch(/stopped\n$/);
    await expect(fetch(url as string)).rejects.toThrow();
  });
});

// The third session of 2026-12-05: `view A B` took --event, --q and --method only, so the page of
// a diff read with --sequential, --power, --scores, --cluster or --partial could not be made, and the page
// showed no score comparison even when diff printed one: the page a user looked at was not the verdict
// diff gave them.
describe('view takes the diff\'s reading options, and the page shows what the report holds', () => {
  let dir: string;
  let a: string;
  let b: string;
  let c: string;
  beforeAll(async () => {
    const { tempDir } = await import('../__fixtures__/helpers.js');
    const { sweep } = await import('../executor/sweep.js');
    const { extend } = await import('../executor/resume.js');
    dir = await tempDir('prove-view-options-');
    const spec = 'target_id = "v"\nt_unit = "turns"\nreplicates = 16\n\n[axes.slack]\ntype = "continuous"\nvalues = [4, 8]\n\n[axes.task]\ntype = "categorical"\nvalues = ["t0", "t1", "t2"]\n';
    const mix = (s: number, k: number): number => (Math.imul((s ^ (k * 0x9e3779b9)) >>> 0, 2654435761) >>> 0) % 1000;
    // The score depends on the task too: with scores of the seed alone every task (cluster) would hold the
    // same differences, and the pooled clustered comparison would have no test (its SE is 0).
    const target = (k: number) => (cfg: { seed: number; task?: string }) => ({ outcome: mix(cfg.seed, k) < 400 ? 'failed' : 'passed', t: 1, score: (mix(cfg.seed, k + 10 + Number(String(cfg.task ?? 't0').slice(1))) % 101) / 100 });
    a = (await sweep({ spec, target: target(1), store: dir, salt: 's', maxMde: 0.99, now: new Date('2026-11-06T10:00:00Z') })).run_id;
    b = (await sweep({ spec, target: target(2), store: dir, salt: 's', maxMde: 0.99, now: new Date('2026-11-06T11:00:00Z') })).run_id;
    await extend({ store: dir, ref: b, target: target(2), replicates: 4 });
    // An interrupted run: the sweep is stopped after 40 of its 96 episodes.
    const stop = new AbortController();
    let n = 0;
    const stopping = (cfg: { seed: number }) => {
      if (++n === 40) stop.abort();
      return target(3)(cfg);
    };
    c = (await sweep({ spec, target: stopping, store: dir, salt: 's', maxMde: 0.99, signal: stop.signal, now: new Date('2026-11-06T12:00:00Z') })).run_id;
  });

  const cases: { flags: string[]; options: Record<string, unknown>; runs: () => [string, string] }[] = [
    { flags: ['--sequential', '--event', 'failed'], options: { sequential: true, events: ['failed'] }, runs: () => [a, b] },
    { flags: ['--power', '0.9', '--event', 'failed'], options: { power: 0.9, events: ['failed'] }, runs: () => [a, b] },
    { flags: ['--cluster', 'task', '--event', 'failed'], options: { cluster: 'task', events: ['failed'] }, runs: () => [a, b] },
    { flags: ['--scores', '--event', 'failed'], options: { scores: true, events: ['failed'] }, runs: () => [a, b] },
    { flags: ['--partial', '--event', 'failed'], options: { partial: true, events: ['failed'] }, runs: () => [a, c] },
  ];
  for (const k of cases) {
    it(`view A B ${k.flags.join(' ')}: the page is viewDiff's, from the report diffRuns gives with the same options`, async () => {
      const [x, y] = k.runs();
      const report = await diffRuns(dir, x, y, k.options);
      const view = await viewDiff(dir, x, y, k.options);
      expect(JSON.parse(JSON.stringify(view.report))).toEqual(JSON.parse(JSON.stringify(report)));
      const io = capture(dir);
      expect(await runCli(['--store', dir, 'view', x, y, ...k.flags, '--out', 'page.html'], io.io), io.err()).toBe(0);
      expect(await readFile(join(dir, 'page.html'), 'utf8')).toBe(view.html);
      expect(view.html).toContain(escapeHtml(report.method.description));
    });
  }

  // A review (fifth session of 2026-12-06): a diff read with --partial named a report command without it
  // (next:), which report then refused; so did the page's heatmap note.
  it('a diff read with --partial names its report command with --partial, as the page\'s heatmap note does', async () => {
    const report = await diffRuns(dir, a, c, { partial: true, events: ['failed'] });
    expect(report.next.at(-1)).toBe('--partial');
    const view = await viewDiff(dir, a, c, { partial: true, events: ['failed'] });
    expect(view.html).toMatch(/poisson-prove --store \S+ report [^<]* --event failed --partial: /);
  });

  // A review (2026-12-07): the page's heatmap of a --partial diff lacked the red "partial: ..." caption that
  // the note's own command (`report ... --partial --out x.svg`) draws under the grid.
  it("a --partial page's heatmap is byte for byte the svg its note's report command writes, partial caption and all", async () => {
    const view = await viewDiff(dir, a, c, { partial: true, events: ['failed'] });
    const m = /<img alt="heatmap of the change in failed" src="data:image\/svg\+xml;base64,([^"]+)">\n<p class="note">([^<]*): the family/.exec(view.html);
    expect(m).not.toBeNull();
    const svg = Buffer.from(m?.[1] as string, 'base64').toString('utf8');
    // The note's command, its words unquoted (the store and the run names are double-quoted where they hold a space).
    const words = [...(m?.[2] as string).replace(/&quot;/g, '"').matchAll(/"([^"]*)"|(\S+)/g)].map((w) => w[1] ?? w[2] as string);
    expect(words.slice(0, 2)).toEqual(['poisson-prove', '--store']);
    expect(words.at(-1)).toBe('--partial');
    const io = capture(dir);
    expect(await runCli([...words.slice(1), '--out', 'partial-grid.svg'], io.io), io.err()).toBe(0);
    const written = await readFile(join(dir, 'partial-grid.svg'), 'utf8');
    expect(written).toContain('fill="#b00020">partial: ');
    expect(svg).toBe(written);
  });

  // A review (2026-12-07): the page's coverage line said "(--full lists them per condition)"; the page has no --full.
  it("the coverage line names the diff command that lists the pairs without a partner, which runs when pasted", async () => {
    const { html, report } = await viewDiff(dir, a, b, { events: ['failed'] });
    expect(report.unmatched?.after).toBeGreaterThan(0); // b was extended by 4 replicates
    const m = /<div><b>coverage<\/b> [^<]*\((poisson-prove [^<]*) lists them per condition\)\.<\/div>/.exec(html);
    expect(m?.[1]).toBe(escapeHtml(`poisson-prove --store ${dir} diff "${report.before.name}" "${report.after.name}" --full`));
    const io = capture(dir);
    expect(await runCli(['--store', dir, 'diff', report.before.name, report.after.name, '--full'], io.io), io.err()).toBe(0);
    expect(io.out()).toMatch(/only before +only after/);
  });

  it('without --partial an interrupted run is refused as diff refuses it (exit 2)', async () => {
    const io = capture(dir);
    expect(await runCli(['--store', dir, 'view', a, c, '--out', 'refused.html'], io.io)).toBe(2);
    expect(io.err()).toMatch(/is interrupted and holds 40 of the 96 \(condition, replicate\) pairs of its design; poisson-prove --store \S+ resume .* runs the missing pairs; or pass --partial to view it as it is/);
    await expect(readFile(join(dir, 'refused.html'))).rejects.toThrow();
  });

  it('shows the score comparison (each condition\'s row, as diff prints it) and, with --cluster, the pooled and clustered lines', async () => {
    const report = await diffRuns(dir, a, b, { cluster: 'task', events: ['failed'] });
    const scores = report.scores!;
    const clustered = report.clustered!;
    expect(scores.rows).toHaveLength(6);
    const { html } = await viewDiff(dir, a, b, { cluster: 'task', events: ['failed'] });
    expect(html).toContain('<h2>Scores</h2>');
    expect(html).toContain(`<b>scores</b> ${escapeHtml(scores.method)}`);
    expect(html).toContain(`<b>pooled</b> ${escapeHtml(fmtChange(scores.pooled!.difference))} [`);
    for (const r of scores.rows) {
      expect(html).toContain(`<tr class="by-condition" data-condition="${escapeAttribute(r.condition)}"><td>${escapeHtml(r.condition)}</td><td class="num">${r.n}</td><td class="num">${r.before === null ? '-' : r.before.toFixed(3)}</td><td class="num">${r.after === null ? '-' : r.after.toFixed(3)}</td><td class="num">${r.difference === null ? '-' : escapeHtml(fmtChange(r.difference))}</td>`);
    }
    expect(html).toContain('<h2>Clustered by task</h2>');
    for (const r of clustered.rows) expect(html).toContain(`<tr><td>${escapeHtml(r.event)}</td><td class="num">${r.clusters}</td><td class="num">${r.n}</td>`);
    // A diff without scores in either run has no such section.
    const plain = await viewDiff(dir, a, b, { scores: false, events: ['failed'] });
    expect(plain.html).not.toContain('<h2>Scores</h2>');
  });

  it('refuses the diff\'s options on a run page (one run), as it refuses --event', async () => {
    const io = capture(dir);
    expect(await runCli(['--store', dir, 'view', a, '--sequential', '--out', 'one.html'], io.io)).toBe(2);
    expect(io.err()).toMatch(/apply to a diff page; name two runs \(view A B\), or leave them out for a run page/);
  });
});

// A review (first session of 2026-12-06's evening): the run page of a run written before checksums said
// nothing of it (view A printed no note, where view A B, diff, report and inspect did), and a run with no
// outcome, or no episode, read "30 episodes, , 30 without an outcome", "colours: , ■ no outcome",
// "...without an outcome; " and "None: every episode has an outcome." of a run of 0 episodes.
describe('the run page of an unverified run, a run without outcomes and an empty run', () => {
  it('says the run is unverified, and view A notes it on stderr as view A B does', async () => {
    const { tempStore, buildRun, seedSpecText } = await import('../diff/__fixtures__/build-run.js');
    const { readFile: read, writeFile } = await import('node:fs/promises');
    const s = await tempStore();
    const m = await buildRun(s, { specText: seedSpecText(4), outcomes: (_c, r) => (r % 2 === 0 ? 'passed' : 'failed') });
    const file = join(s, m.run_id, 'run.json');
    const json = JSON.parse(await read(file, 'utf8')) as Record<string, unknown>;
    delete json['parts'];
    await writeFile(file, JSON.stringify(json));
    const { html } = await viewRun(s, m.run_id);
    expect(html).toContain(`<p class="note" id="unverified"><b>unverified</b> run ${m.run_id} (&quot;${escapeHtml(m.name)}&quot;) is unverified: written before checksums; poisson-prove verify --adopt ${m.run_id} checks its rows and records them.</p>`);
    const c = capture(s);
    expect(await runCli(['--store', s, 'view', m.run_id, '--out', 'run.html'], c.io)).toBe(0);
    expect(c.err()).toContain(`note: run ${m.run_id} ("${m.name}") is unverified: written before checksums`);
    const d = capture(s);
    expect(await runCli(['--store', s, 'view', '#1', '--out', 'again.html'], d.io)).toBe(0);
    expect(d.err().match(/is unverified/g)).toHaveLength(1);
  });

  it('lists only what there is: no outcome at all, and no episode', async () => {
    const { tempStore, buildRun, seedSpecText } = await import('../diff/__fixtures__/build-run.js');
    const s = await tempStore();
    const m = await buildRun(s, { specText: seedSpecText(3), outcomes: () => null });
    const { html } = await viewRun(s, m.run_id);
    expect(html).toContain('<p class="verdict" id="verdict">complete: 3 episodes, 3 without an outcome</p>');
    expect(html).toMatch(/colours: <span style="color:#444">&#9632;<\/span> no outcome<\/span>/);
    expect(html).toContain('<th>counts</th><td>3 rows, 3 without an outcome</td>');
    expect(html).not.toMatch(/, ,|: ,|; <\/td>/);
    const { createRun } = await import('../store/create-run.js');
    const { parseSweepSpec } = await import('../spec/sweep-spec.js');
    const w = await createRun(s, { spec: parseSweepSpec(seedSpecText(3)), specText: seedSpecText(3), target: 'test:fixture', salt: '0123456789abcdef', maxMde: 0.99 });
    const empty = await w.close('interrupted');
    const page = await viewRun(s, empty.run_id);
    expect(page.html).toContain('<p class="verdict" id="verdict">interrupted: 0 episodes</p>');
    expect(page.html).toContain('None: the run holds no episode yet.');
    expect(page.html).not.toContain('every episode has an outcome');
  });
});

// A review (evening of 2026-12-06): an axis value holding U+202E (right-to-left override) reversed the
// page's own words after it ("that ended in failed" read "deliaf ni dedne taht"), in the header lines,
// the table and the forest. Bidirectional controls are shown as their code points on the page and in SVG.
describe('bidirectional controls in labels', () => {
  it('are shown as code points in the page and its forest, never applied; the data and data- attributes keep them', async () => {
    const { diffEpisodes } = await import('../diff/diff-episodes.js');
    const { renderDiffPage } = await import('./diff-page.js');
    const evil = '\u202Eright-to-left \u05e9\u05dc\u05d5\u05dd\u2066x';
    const runOf = (id: string, fail: (r: number) => boolean) => ({
      manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, axes: { name: { type: 'categorical', values: [evil, 'plain'] } } },
      rows: [evil, 'plain'].flatMap((v) => Array.from({ length: 30 }, (_, r) => ({ condition: `name ${v}`, replicate_index: r, seed: 1000 + r, outcome: fail(r) && v === evil ? 'failed' : 'passed', t: 1, name: v }))),
    });
    const report = diffEpisodes(runOf('a', () => false), runOf('b', (r) => r < 14), { events: ['failed'] });
    const html = renderDiffPage({ report, pairs: null, heatmaps: [] });
    const shown = markupOf(html).replace(/ data-[a-z0-9-]+="[^"]*"/g, '');
    expect(shown).not.toMatch(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/);
    expect(shown).toContain('name \u27E8U+202E\u27E9right-to-left \u05e9\u05dc\u05d5\u05dd\u27E8U+2066\u27E9x');
    expect(shown).toMatch(/<b>fragility<\/b> \d+ outcomes? would change the word: \d+ runs? of [AB] in name \u27E8U\+202E\u27E9right-to-left/);
    // The script compares data- attributes with its data: they keep the label as stored.
    expect(html).toContain(`data-condition="name ${evil}"`);
    const { shownBidi } = await import('../internal/bidi.js');
    expect(shownBidi('a\u200Fb\u061Cc\u2069')).toBe('a\u27E8U+200F\u27E9b\u27E8U+061C\u27E9c\u27E8U+2069\u27E9');
  });
});

// A review (evening of 2026-12-06): a forest label cut at 60 UTF-16 units split an emoji's surrogate pair.
describe('forest labels cut between code points', () => {
  it('never leaves half a surrogate pair', async () => {
    const { diffEpisodes } = await import('../diff/diff-episodes.js');
    const { renderForestSvg } = await import('./forest.js');
    const long = `${'x'.repeat(54)}\u{1F600}${'y'.repeat(10)}`; // "name " (5) + 54: the emoji's halves at 59 and 60
    const runOf = (id: string, fail: (r: number) => boolean) => ({
      manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, axes: { name: { type: 'categorical', values: [long] } } },
      rows: Array.from({ length: 20 }, (_, r) => ({ condition: `name ${long}`, replicate_index: r, seed: 1000 + r, outcome: fail(r) ? 'failed' : 'passed', t: 1, name: long })),
    });
    const svg = renderForestSvg(diffEpisodes(runOf('a', () => false), runOf('b', (r) => r < 5), { events: ['failed'] }));
    expect(svg).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    expect(svg).toContain(`name ${'x'.repeat(54)}\u2026`);
  });
});

// The session's own review: the forest sized a label on its raw text, where each bidirectional control is
// drawn as its code point (8 characters): a label of 8 controls started at x = -387, clipped.
describe('forest labels with bidirectional controls', () => {
  it('are sized as shown: no label starts left of the plot', async () => {
    const { diffEpisodes } = await import('../diff/diff-episodes.js');
    const { renderForestSvg } = await import('./forest.js');
    const label = `v${'\u202E\u202D'.repeat(4)}w`;
    const runOf = (id: string, fail: (r: number) => boolean) => ({
      manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, axes: { name: { type: 'categorical', values: [label] } } },
      rows: Array.from({ length: 20 }, (_, r) => ({ condition: `name ${label}`, replicate_index: r, seed: 1000 + r, outcome: fail(r) ? 'failed' : 'passed', t: 1, name: label })),
    });
    const svg = renderForestSvg(diffEpisodes(runOf('a', () => false), runOf('b', (r) => r < 5), { events: ['failed'] }));
    const text = /<text x="(-?[\d.]+)" y="[\d.]+" text-anchor="end"><title>[^<]*<\/title>([^<]*)<\/text>/.exec(svg);
    expect(text?.[2]).toContain('\u27E8U+202E\u27E9');
    // The label ends at x and extends left by its width as drawn (about 7 px a character at 12 px).
    const { textWidth } = await import('../diff/svg.js');
    expect(Number(text?.[1]) - textWidth(text?.[2] ?? '', 12)).toBeGreaterThanOrEqual(0);
  });
});
