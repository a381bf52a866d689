import { BIDI_CONTROLS } from '../internal/bidi.js';
/**
 * The page's style sheet, inlined in every page (no file, no network).
 */
export const PAGE_CSS = `
*{box-sizing:border-box}
body{font-family:Helvetica,Arial,sans-serif;font-size:14px;color:#111;margin:0;background:#fff}
header{padding:16px 24px;border-bottom:1px solid #ddd;background:#fafafa}
main{padding:8px 24px 40px}
h1{font-size:20px;margin:0 0 6px}
h2{font-size:16px;margin:28px 0 8px;border-bottom:1px solid #eee;padding-bottom:4px}
h3{font-size:14px;margin:16px 0 6px}
.verdict{font-size:15px;line-height:1.45;margin:6px 0 0;max-width:1100px}
.word{font-weight:bold;padding:1px 6px;border-radius:3px;background:#eee}
.word.significant-change{background:#fde0c5}
.word.no-significant-change{background:#e3efe3}
.word.inconclusive{background:#eee6f5}
.meta-lines{color:#444;font-size:13px;margin:8px 0 0;max-width:1100px}
.meta-lines div{margin:2px 0;display:grid;grid-template-columns:110px 1fr;gap:0 8px}
.meta-lines b{font-weight:600;color:#333}
.scroll{overflow-x:auto}
table{border-collapse:collapse;font-size:13px}
th,td{padding:4px 8px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
th{background:#f4f4f4;position:sticky;top:0}
th.sortable{cursor:pointer;user-select:none}
th.sortable:after{content:' \\2195';color:#aaa}
th.sorted-asc:after{content:' \\2191';color:#333}
th.sorted-desc:after{content:' \\2193';color:#333}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
tr.cond{cursor:pointer}
tr.cond:hover td{background:#f5f8fc}
tr.cond.selected td{background:#e4eefa}
th.sortable:focus-visible,tr.cond:focus-visible{outline:2px solid #2166ac;outline-offset:-2px}
.better{color:#2166ac}
.worse{color:#b2182b}
.controls{display:flex;gap:12px;align-items:center;margin:8px 0}
.controls input{padding:4px 6px;width:280px}
.forest .forest-row{cursor:pointer}
.forest .forest-row:hover .hit,.forest .forest-row.selected .hit{fill:#e4eefa}
.heatmaps img{max-width:100%;border:1px solid #eee;margin:4px 0}
#pairs{border:1px solid #ddd;border-radius:4px;padding:8px 12px;min-height:48px;background:#fcfcfc}
#pairs .none{color:#666}
pre{background:#f6f6f6;border:1px solid #eee;padding:6px 8px;margin:4px 0;max-height:320px;overflow:auto;font-size:12px;white-space:pre-wrap;word-break:break-word}
.sides{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.bar{display:flex;height:14px;min-width:160px;border:1px solid #ccc}
.bar span{display:block;height:100%}
.note{color:#555;font-size:12px}
footer{color:#6b6b6b;font-size:12px;padding:12px 24px;border-top:1px solid #eee}
`;

/**
 * The page's script, inlined: sorting and filtering of the conditions table, and the discordant pairs
 * of the condition clicked (from the data embedded in the page, or with `--serve` fetched from the
 * server on demand). Every value from the data reaches the page through textContent, never as markup.
 */
export const PAGE_JS = `
(function () {
  'use strict';
  // Text columns in natural order: slack 2, 4, 8, 16, 32 (as text, 16 came before 2).
  var collate = new Intl.Collator(undefined, { numeric: true });
  var dataEl = document.getElementById('poisson-data');
  var data = dataEl ? JSON.parse(dataEl.textContent) : {};
  // Bidirectional controls in the data shown as their code points, as the page's markup shows them (the
  // class is internal/bidi.ts's BIDI_CONTROLS, written here as escapes: the script holds no control itself).
  function bidiShown(t) {
    return String(t).replace(/${BIDI_CONTROLS.source}/g, function (c) {
      var h = c.charCodeAt(0).toString(16).toUpperCase();
      while (h.length < 4) h = '0' + h;
      return '\u27E8U+' + h + '\u27E9';
    });
  }
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = bidiShown(text);
    if (cls) e.className = cls;
    return e;
  }
  // Enter or Space on an element reached with the keyboard acts as a click (the headers, the rows).
  function byKeyboard(e, act) {
    e.tabIndex = 0;
    e.addEventListener('keydown', function (ev) {
      if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); act(); }
    });
  }
  // Sorting: a click on a header sorts by its column (numbers numerically), again to reverse; the
  // headers are reached with Tab and say how the table is sorted (aria-sort).
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (table) {
    var heads = table.querySelectorAll('th.sortable');
    Array.prototype.forEach.call(heads, function (th, col) {
      th.setAttribute('aria-sort', 'none');
      byKeyboard(th, function () { th.click(); });
      th.addEventListener('click', function () {
        var asc = !th.classList.contains('sorted-asc');
        Array.prototype.forEach.call(heads, function (h) { h.classList.remove('sorted-asc', 'sorted-desc'); h.setAttribute('aria-sort', 'none'); });
        th.classList.add(asc ? 'sorted-asc' : 'sorted-desc');
        th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
        var key = th.getAttribute('data-key');
        var numeric = th.classList.contains('num');
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = a.getAttribute('data-' + key), y = b.getAttribute('data-' + key);
          var c;
          if (numeric) {
            // A row without a number ("-") sorts last both ways (it came first in descending order).
            var fx = parseFloat(x), fy = parseFloat(y);
            if (isNaN(fx) || isNaN(fy)) return isNaN(fx) === isNaN(fy) ? 0 : isNaN(fx) ? 1 : -1;
            c = fx - fy;
          } else c = collate.compare(x || '', y || '');
          return asc ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
  // Filtering: text (in the condition or event) and verdict.
  var filter = document.getElementById('filter');
  var verdictFilter = document.getElementById('verdict-filter');
  var shown = document.getElementById('shown');
  function applyFilter() {
    var table = document.getElementById('conditions');
    if (!table) return;
    var text = filter ? filter.value.trim().toLowerCase() : '';
    var verdict = verdictFilter ? verdictFilter.value : '';
    var n = 0;
    function holdsText(condition, event) {
      return text === '' || (condition + ' ' + (event || '')).toLowerCase().indexOf(text) >= 0;
    }
    function keeps(condition, event, v) {
      return holdsText(condition, event) && (verdict === '' || v === verdict);
    }
    Array.prototype.forEach.call(table.tBodies[0].rows, function (r) {
      var ok = keeps(r.getAttribute('data-condition'), r.getAttribute('data-event'), r.getAttribute('data-verdict'));
      r.hidden = !ok;
      if (ok) n++;
    });
    // The Scores table's rows by the text, read as the conditions table reads it: the condition with any
    // of the report's events (a review: "failed" hid the whole table, "x failed" too, while the others kept
    // their rows); the verdict menu reads the events' verdicts and leaves these rows.
    var events = [];
    (data.rows || []).forEach(function (row) { if (events.indexOf(row.event) < 0) events.push(row.event); });
    Array.prototype.forEach.call(document.querySelectorAll('tr.by-condition'), function (r) {
      var c = r.getAttribute('data-condition') || '';
      r.hidden = !(holdsText(c, '') || events.some(function (e) { return holdsText(c, e); }));
    });
    // The forest's lines too, each the row of the report it draws (they stayed when the table's were hidden).
    Array.prototype.forEach.call(document.querySelectorAll('.forest-row'), function (g) {
      var row = data.rows ? data.rows[Number(g.getAttribute('data-row'))] : null;
      if (!row) return;
      g.style.display = keeps(row.condition, row.event, row.verdict) ? '' : 'none';
    });
    if (shown) shown.textContent = String(n);
  }
  if (filter) filter.addEventListener('input', applyFilter);
  if (verdictFilter) verdictFilter.addEventListener('change', applyFilter);
  // The discordant pairs of a condition.
  var panel = document.getElementById('pairs');
  function side(label, s) {
    var box = el('div');
    box.appendChild(el('h4', label + ': ' + s.outcome + (s.t === null ? '' : ', t ' + s.t)));
    if (s.error !== null && s.error !== undefined) { box.appendChild(el('div', 'error')); box.appendChild(el('pre', s.error, 'error')); }
    box.appendChild(el('div', 'meta'));
    box.appendChild(el('pre', s.meta === null || s.meta === undefined ? '-' : JSON.stringify(s.meta, null, 2), 'meta'));
    if (s.answer !== undefined) { box.appendChild(el('div', 'answer (from the response cache)')); box.appendChild(el('pre', s.answer === null ? '(not in the cache)' : s.answer, 'answer')); }
    return box;
  }
  // A pair's replicate, as diff --show pairs writes it: A/B when run B holds the sample at another stored
  // index (two imports pair by sample identity).
  function replicateText(p) {
    var b = p.after.replicate_index;
    return b === undefined || b === p.replicate_index ? String(p.replicate_index) : p.replicate_index + '/' + b;
  }
  function renderPairs(condition, pairs) {
    panel.textContent = '';
    panel.appendChild(el('h3', condition));
    if (!pairs) { panel.appendChild(el('p', 'No pairs: this page was written without them.', 'none')); return; }
    if (!pairs.paired) { panel.appendChild(el('p', 'No discordant pairs: the runs are not paired (' + (pairs.unpaired_reason || '') + ').', 'none')); return; }
    var groups = pairs.groups.filter(function (g) { return g.condition === condition; });
    groups.forEach(function (g) {
      var head = g.event + ': ' + g.rise + ' rise, ' + g.fall + ' fall' + (g.truncated ? ' (the first ' + g.pairs.length + ' listed)' : '');
      // A settled listing (--sequential, a run still being written): the discordant pairs the rows left for a later read.
      if (g.waiting && g.waiting.rise + g.waiting.fall > 0) head += '; ' + g.waiting.rise + ' rise, ' + g.waiting.fall + ' fall written after the first replicate a run lacks wait for a later read (--sequential)';
      var h = el('div', head, 'group');
      h.setAttribute('data-event', g.event);
      panel.appendChild(h);
      if (g.pairs.length === 0) {
        // None listed: no pair at all (the row's n = 0, its words from the data), none discordant, or none
        // asked for (--limit 0) of those counted above.
        var row = (data.rows || []).filter(function (x) { return x.condition === condition && x.event === g.event; })[0];
        // Discordant pairs that wait for a later read (--sequential) are not pairs that agree (a review).
        var waiting = g.waiting ? g.waiting.rise + g.waiting.fall : 0;
        var agree = waiting > 0
          ? 'No discordant pair among the ' + (row && typeof row.n === 'number' ? row.n + ' ' : '') + 'pairs tested on ' + g.event + '; the ' + waiting + ' written after the first replicate a run lacks are not tested yet.'
          : 'No discordant pairs: every pair agrees on ' + g.event + '.';
        var none = row && row.no_pairs ? row.no_pairs : g.rise + g.fall === 0 ? agree : 'None listed (--limit 0): the counts above are the discordant pairs.';
        panel.appendChild(el('p', none, 'none'));
        return;
      }
      var t = el('table', null, 'pairs');
      var hr = t.createTHead().insertRow();
      ['', 'replicate', 'seed', 'A (before)', 'B (after)', 't A', 't B', 'error A', 'error B'].forEach(function (c) { hr.appendChild(el('th', c)); });
      var body = t.createTBody();
      g.pairs.forEach(function (p) {
        var r = body.insertRow();
        r.className = 'pair';
        [p.direction, replicateText(p), p.seed, p.before.outcome, p.after.outcome, p.before.t, p.after.t, p.before.error || '-', p.after.error || '-'].forEach(function (c) { r.appendChild(el('td', c === null ? '-' : c)); });
        var d = body.insertRow();
        var cell = el('td');
        cell.colSpan = 9;
        var det = el('details');
        det.appendChild(el('summary', 'replicate ' + replicateText(p) + ', seed ' + p.seed + ': meta' + (pairs.private ? ' and answers' : '')));
        var sides = el('div', null, 'sides');
        sides.appendChild(side('A', p.before));
        sides.appendChild(side('B', p.after));
        det.appendChild(sides);
        cell.appendChild(det);
        d.appendChild(cell);
      });
      panel.appendChild(t);
      if (g.pairs.some(function (p) { return replicateText(p) !== String(p.replicate_index); })) {
        panel.appendChild(el('p', 'A/B: run B holds the sample at another stored index than run A (two imports are paired by sample identity).', 'none'));
      }
    });
    if (groups.length === 0) panel.appendChild(el('p', 'No rows for this condition.', 'none'));
  }
  var cache = {};
  // The condition last clicked: a served read that ends after another condition was clicked is kept for
  // later but not shown (it replaced the panel of the condition selected since; a review). The panel is
  // aria-busy while a read is in flight.
  var current = null;
  var reading = 0;
  function select(condition) {
    if (!panel) return;
    current = condition;
    Array.prototype.forEach.call(document.querySelectorAll('tr.cond'), function (r) { r.classList.toggle('selected', r.getAttribute('data-condition') === condition); });
    Array.prototype.forEach.call(document.querySelectorAll('.forest-row'), function (g) {
      var row = data.rows && data.rows[Number(g.getAttribute('data-row'))];
      g.classList.toggle('selected', !!row && row.condition === condition);
    });
    if (!data.serve) { renderPairs(condition, data.pairs); return; }
    if (cache[condition]) { renderPairs(condition, cache[condition]); return; }
    panel.textContent = '';
    panel.appendChild(el('p', 'reading the pairs of ' + condition + ' ...', 'none'));
    reading++;
    panel.setAttribute('aria-busy', 'true');
    function done() { reading--; if (reading === 0) panel.setAttribute('aria-busy', 'false'); }
    fetch('pairs?condition=' + encodeURIComponent(condition)).then(function (res) {
      if (!res.ok) return res.text().then(function (t) { throw new Error(t); });
      return res.json();
    }).then(function (p) {
      cache[condition] = p;
      if (current === condition) renderPairs(condition, p);
      done();
    }, function (err) {
      if (current === condition) {
        panel.textContent = '';
        panel.appendChild(el('p', 'could not read the pairs of ' + condition + ': ' + err.message, 'none'));
      }
      done();
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll('tr.cond'), function (r) {
    function go() { select(r.getAttribute('data-condition')); }
    r.addEventListener('click', go);
    byKeyboard(r, go);
  });
  Array.prototype.forEach.call(document.querySelectorAll('.forest-row'), function (g) {
    function go() { var row = data.rows[Number(g.getAttribute('data-row'))]; if (row) select(row.condition); }
    g.addEventListener('click', go);
    byKeyboard(g, go);
  });
  document.documentElement.setAttribute('data-ready', 'true');
})();
`;
