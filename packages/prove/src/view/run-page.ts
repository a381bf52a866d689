import type { RunInspection } from '../store/inspect-run.js';
import { coverageOfPairs, partialLine } from '../diff/partial.js';
import { retriesText } from '../store/run-retries.js';
import { importText, unverifiedText } from '../store/run-provenance-text.js';
import { statusText, uncommittedNote, writerNote, writerWords } from '../store/run-status.js';
import { escapeAttribute, escapeHtml as h } from './escape.js';
import { pageShell } from './shell.js';
import { ownValue } from '../internal/own-key.js';

/** Outcome colours of the run page's bars: passed green, the rest from a qualitative palette (ColorBrewer Set2). */
const PALETTE = ['#fc8d62', '#8da0cb', '#e78ac3', '#a6d854', '#ffd92f', '#e5c494', '#b3b3b3'];

function outcomeColour(label: string, others: readonly string[]): string {
  if (label === 'passed') return '#66c2a5';
  return PALETTE[others.indexOf(label) % PALETTE.length] ?? '#b3b3b3';
}

function value(v: unknown): string {
  if (v === null || v === undefined) return '<span class="note">-</span>';
  if (typeof v === 'string' && v.includes('\n')) return `<pre>${h(v)}</pre>`;
  if (typeof v === 'object') return `<pre>${h(JSON.stringify(v, null, 2))}</pre>`;
  return h(v);
}

function kvTable(entries: readonly (readonly [string, unknown])[]): string {
  return `<table class="kv">${entries.map(([k, v]) => `<tr><th>${h(k)}</th><td>${value(v)}</td></tr>`).join('')}</table>`;
}

/**
 * The run page (`poisson-prove view A`): the run's outcomes by condition (counts and a bar per
 * condition; sortable, filterable), the episodes without an outcome with their errors and meta (the
 * first `limit`), and the manifest: the design (target, axes, conditions, replicates, salt, hashes), the
 * gate (max_mde, q, power, method), the status and counts, and the provenance. A `running` run's status
 * says what `inspect` says of its writer: alive, or gone (killed or crashed) with the resume command that
 * finishes it; a run whose errors were retried says how many episodes were run again, when, and which
 * errors (as `inspect`). Every value from the store is escaped.
 *
 * @param run - from `inspectRun(store, ref, { event: null, limit })`.
 * @param resume - the resume command that finishes the run, as it works when pasted (resumeCommandLine).
 * @returns the HTML document.
 */
export function renderRunPage(run: RunInspection, resume: string): string {
  const m = run.manifest;
  const labels = [...new Set(run.conditions.flatMap((c) => Object.keys(c.outcomes)))].sort((a, b) => (a === 'passed' ? -1 : b === 'passed' ? 1 : a < b ? -1 : a > b ? 1 : 0));
  const others = labels.filter((l) => l !== 'passed');
  const body: string[] = [];
  body.push('<header>');
  body.push(`<h1>${h(m.name)}</h1>`);
  const total = m.counts.rows;
  const writer = writerWords(run);
  // The parts of each line joined (a run with no outcome, or no episode, left ", , " and "; " behind; a review).
  const tally = [...labels.map((l) => `${l} ${run.conditions.reduce((s, c) => s + (ownValue(c.outcomes, l) ?? 0), 0)}`), ...(m.counts.rows_without_outcome > 0 ? [`${m.counts.rows_without_outcome} without an outcome`] : [])];
  const summary = `${m.status}${writer === null ? '' : ` (${writer})`}: ${[`${total} episode${total === 1 ? '' : 's'}`, ...tally].join(', ')}`;
  body.push(`<p class="verdict" id="verdict">${h(summary)}</p>`);
  // Where an imported run came from, as inspect says it (the page named only its target id; a review).
  const imported = importText(m);
  if (imported !== null) body.push(`<p class="note" id="imported"><b>imported</b> ${h(imported)}</p>`);
  // A run written before checksums is read unverified, as the CLI notes it (the page said nothing; a review).
  const unverified = unverifiedText(m);
  if (unverified !== null) body.push(`<p class="note" id="unverified"><b>unverified</b> ${h(unverified)}</p>`);
  // A run left running by a killed sweep: nothing runs it any more, and resume finishes it (as inspect says).
  if (run.writer === 'gone') body.push(`<p class="note" id="writer"><b>writer</b> ${h(writerNote(run, resume) as string)}</p>`);
  // Parts a killed writer placed and did not record: not counted on the page, as inspect says.
  const uncommitted = uncommittedNote(run, resume);
  if (uncommitted !== null) body.push(`<p class="note" id="uncommitted"><b>uncommitted</b> ${h(uncommitted)}</p>`);
  // A run whose errors were run again (resume --retry-errors), as inspect says it.
  const retries = retriesText(m);
  if (retries !== null) body.push(`<p class="note" id="retries"><b>retries</b> ${h(retries)}</p>`);
  // A run that does not hold its design (interrupted, or marked complete without every pair), as the diff page says it.
  const partial = partialLine([coverageOfPairs(m, run.conditions.reduce((n, c) => n + c.rows, 0))].filter((c) => !c.complete));
  if (partial !== null) body.push(`<p class="note" id="partial"><b>partial</b> ${h(partial.replace(/^partial: /, ''))}</p>`);
  body.push(`<div class="meta-lines"><div><b>run</b> ${h(m.run_id)}</div><div><b>target</b> ${h(m.target)} (${h(m.target_id)})</div><div><b>created</b> ${h(m.created)}</div></div>`);
  body.push('</header><main>');
  body.push('<h2>Outcomes by condition</h2>');
  body.push('<div class="controls"><label>filter <input id="filter" type="search" placeholder="condition"></label>');
  body.push(`<span class="note"><span id="shown">${run.conditions.length}</span> of ${run.conditions.length} conditions; colours: ${[...labels.map((l) => `<span style="color:${outcomeColour(l, others)}">&#9632;</span> ${h(l)}`), ...(m.counts.rows_without_outcome > 0 ? ['<span style="color:#444">&#9632;</span> no outcome'] : [])].join(', ')}</span></div>`);
  body.push('<div class="scroll"><table id="conditions" class="sortable"><thead><tr>');
  body.push('<th data-key="condition" class="sortable">condition</th><th data-key="rows" class="sortable num">episodes</th>');
  labels.forEach((l, i) => body.push(`<th data-key="o${i}" class="sortable num">${h(l)}</th>`));
  body.push('<th data-key="none" class="sortable num">no outcome</th><th>share</th></tr></thead><tbody>');
  for (const c of run.conditions) {
    const attrs = [`data-condition="${escapeAttribute(c.condition)}"`, `data-rows="${c.rows}"`, `data-none="${c.rows_without_outcome}"`, ...labels.map((l, i) => `data-o${i}="${ownValue(c.outcomes, l) ?? 0}"`)];
    const bar = [...labels.map((l) => [ownValue(c.outcomes, l) ?? 0, outcomeColour(l, others), l] as const), [c.rows_without_outcome, '#444', 'no outcome'] as const]
      .filter(([n]) => n > 0)
      .map(([n, colour, l]) => `<span style="width:${((100 * n) / Math.max(1, c.rows)).toFixed(2)}%;background:${colour}" title="${h(`${l} ${n}`)}"></span>`)
      .join('');
    body.push(`<tr ${attrs.join(' ')}><td>${h(c.condition)}</td><td class="num">${c.rows}</td>${labels.map((l) => `<td class="num">${ownValue(c.outcomes, l) ?? 0}</td>`).join('')}<td class="num">${c.rows_without_outcome}</td><td><div class="bar">${bar}</div></td></tr>`);
  }
  body.push('</tbody></table></div>');
  body.push('<h2>Episodes without an outcome</h2>');
  if (run.matching === 0) body.push(`<p class="note">${total === 0 ? 'None: the run holds no episode yet.' : 'None: every episode has an outcome.'}</p>`);
  else {
    body.push(`<p class="note">${run.matching} episodes have no outcome (an error, or no score)${run.matching > run.episodes.length ? `; the first ${run.episodes.length} by condition and replicate are shown` : ''}.</p>`);
    // t and the score as inspect lists them (an episode that holds a score but no outcome showed neither; a review).
    body.push('<div class="scroll"><table id="errors"><thead><tr><th>condition</th><th>replicate</th><th>seed</th><th class="num">t</th><th class="num">score</th><th>error</th><th>meta</th></tr></thead><tbody>');
    for (const e of run.episodes) {
      const num = (v: number | null | undefined): string => (v === null || v === undefined ? '-' : h(String(v)));
      body.push(`<tr><td>${h(e.condition)}</td><td class="num">${h(e.replicate_index)}</td><td class="num">${h(String(e.seed))}</td><td class="num">${num(e.t)}</td><td class="num">${num(e.score)}</td><td><pre>${h(e.error ?? '-')}</pre></td><td><pre>${h(JSON.stringify(e.meta, null, 2))}</pre></td></tr>`);
    }
    body.push('</tbody></table></div>');
  }
  body.push('<h2>Manifest</h2>');
  body.push('<h3>Design</h3>');
  body.push(
    kvTable([
      ['target', m.target],
      ['target_id', m.target_id],
      ['t_unit', m.t_unit],
      ['replicates', m.replicates],
      ['axes', Object.entries(m.axes).map(([name, axis]) => `${name} (${axis.type}): ${axis.values.join(', ')}`).join('\n')],
      ['conditions', m.conditions.length],
      ['salt', m.salt],
      ['spec_sha256', m.spec_sha256],
      ['registration_sha256', m.registration_sha256],
      ['only', m.only ?? null],
      ...(m.import !== undefined ? [['import', m.import] as const] : []),
    ]),
  );
  body.push('<h3>Gate</h3>');
  body.push(kvTable([['max_mde', m.max_mde], ['q', m.q], ['power', m.power], ['method', m.method]]));
  body.push('<h3>Status</h3>');
  body.push(
    kvTable([
      ['status', statusText(run, resume)],
      ['backend', m.backend],
      ['created', m.created],
      ['finished', m.finished],
      ['counts', `${m.counts.rows} rows, ${m.counts.rows_without_outcome} without an outcome${Object.keys(m.counts.outcomes).length > 0 ? `; ${Object.entries(m.counts.outcomes).map(([k, n]) => `${k} ${n}`).join(', ')}` : ''}`],
      ['usage', m.usage ?? null],
      ['budget_tokens', m.budget_tokens ?? null],
      ['extensions', m.extensions.length > 0 ? m.extensions.map((x) => ({ ...x, seeds: `${x.seeds.length} seeds` })) : null],
      ['resumes', m.resumes.length > 0 ? m.resumes : null],
      ['retries', (m.retries ?? []).length > 0 ? m.retries : null],
    ]),
  );
  body.push('<h3>Provenance</h3>');
  body.push(kvTable(Object.entries(m.provenance)));
  body.push('</main>');
  return pageShell({ title: `${m.name} (${m.run_id})`, body: body.join('\n'), data: { kind: 'run', serve: false } });
}
