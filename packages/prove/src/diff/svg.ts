import { abbreviateApart } from './distinct-abbreviations.js';
import { shownBidi } from '../internal/bidi.js';
import { goodness, riseIsGood } from './direction.js';
import type { ReportGrid } from './report-grid.js';
import { fmtChange, fmtInterval, printDecimals } from './text-table.js';
import { requireArgument } from 'poisson-core';

// ColorBrewer's RdBu diverging scheme (Brewer, colorbrewer2.org), 7 classes: red for a change for the
// worse, blue for a change for the better, near-white for no change. Better or worse is the event's
// (direction.ts: passed rising is better, a failure event rising is worse), not the change's sign; the
// legend says so in words, per event.
const RDBU: readonly [number, number, number][] = [
  [178, 24, 43],
  [239, 138, 98],
  [253, 219, 199],
  [247, 247, 247],
  [209, 229, 240],
  [103, 169, 207],
  [33, 102, 172],
];

/** The colour of t in [-1, 1] (-1 the scale's worst end, +1 its best), interpolated along RdBu. */
export function divergingColour(t: number): string {
  const u = (Math.max(-1, Math.min(1, Number.isFinite(t) ? t : 0)) + 1) / 2;
  const pos = u * (RDBU.length - 1);
  const i = Math.min(RDBU.length - 2, Math.floor(pos));
  const f = pos - i;
  const a = RDBU[i] as [number, number, number];
  const b = RDBU[i + 1] as [number, number, number];
  const c = a.map((v, k) => Math.round(v + f * ((b[k] as number) - v)));
  return `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

function esc(s: string): string {
  // Bidirectional controls shown as their code points (internal/bidi.ts shownBidi), never applied to the text after them.
  return shownBidi(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The scale's end: the largest |change| shown, rounded up to a tenth; at least 0.1, at most 1. */
function scaleEnd(grid: ReportGrid): number {
  const m = Math.max(0, ...grid.cells.map((c) => (c.row ? Math.abs(c.row.change) : 0)).filter(Number.isFinite));
  return Math.min(1, Math.max(0.1, Math.ceil(m * 10 - 1e-9) / 10));
}

/** The longest axis value printed whole; longer ones (a 64-hex hash) keep 12 characters and an ellipsis. */
const MAX_LABEL = 16;

/** An axis value as printed: whole when short, else its first 12 characters and an ellipsis. */
export function abbreviate(value: string): string {
  return value.length > MAX_LABEL ? `${value.slice(0, 12)}\u2026` : value;
}

/**
 * The estimated width of a line of text: 0.6 em per character (Helvetica/Arial average about 0.5-0.55 em
 * for mixed text and 0.556 em for digits; 0.6 leaves room), 0.65 em when bold.
 */
export function textWidth(text: string, fontSize: number, bold = false): number {
  return Math.ceil([...text].length * fontSize * (bold ? 0.65 : 0.6));
}

/** A text element; when the shown text is abbreviated, the full value is its tooltip (<title>). */
function label(x: number, y: number, shown: string, full: string, attrs: string): string {
  const tip = shown === full ? '' : `<title>${esc(full)}</title>`;
  return `<text x="${x}" y="${y}" ${attrs}>${tip}${esc(shown)}</text>`;
}

/**
 * The grid as an SVG heatmap: one cell per x and y value, filled on a diverging scale (ColorBrewer
 * RdBu: red a change for the worse, blue for the better, by the event's direction of improvement —
 * `passed` rising is better, a failure event rising is worse; the legend says so for the event) with the change,
 * its simultaneous interval and its verdict written in it; cells whose change counts toward the verdict
 * get a heavy outline, drawn after every cell so no neighbour covers it. Axis values longer than 16
 * characters are abbreviated to 12 and an ellipsis (when that leaves two values alike, to 16 that keep
 * where they differ: `distinctAbbreviations`), with the full value as a tooltip; the margins,
 * columns and the whole image are sized from estimated text widths (0.6 em per character) so that the
 * longest line fits. The caption says that the family is the grid's cells: Holm and the simultaneous
 * intervals are over the cells shown, so a cell's figures can differ from the diff's row; and, for a grid
 * read with `sequential`, that its verdicts are the anytime-valid test's.
 *
 * @param grid - from {@link reportGrid}.
 * @returns a standalone SVG document.
 * @see C. A. Brewer, ColorBrewer 2.0 (colorbrewer2.org), the RdBu scheme.
 */
export function renderGridSvg(grid: ReportGrid): string {
  requireArgument('renderGridSvg', 'grid', grid, 'object', 'the grid reportGrid returns');
  const d = grid.diff;
  const nx = grid.x_values.length;
  const ny = grid.y_values.length;
  // The family: the cells tested (with pairs), as Holm and the intervals count them; a cell no pair falls in is drawn, not tested.
  const tested = d.tests;
  const family = `${tested} cell${tested === 1 ? '' : 's'} tested`;
  const end = scaleEnd(grid);
  // Values that would read alike cut at their start (long ones that differ only at their end) keep where they differ.
  const shownApart = (values: readonly string[]): { full: string; shown: string }[] => {
    const shown = abbreviateApart(values, abbreviate, MAX_LABEL);
    return values.map((full, i) => ({ full, shown: shown[i] as string }));
  };
  const xs = shownApart(grid.x_values.map(String));
  const ys = shownApart(grid.y_values.map((v) => (v === null ? '' : String(v))));
  // Under --sequential the paired interval is the betting confidence sequence (diff-rows.ts, seed-cells.ts).
  const interval = !d.method.paired ? "Newcombe's hybrid score interval" : d.sequential ? 'confidence sequence' : 'Tango interval';
  const lines: [string, number, boolean, string][] = [
    [`${d.verdict}: change in the rate of ${grid.event}`, 15, true, '#111'],
    [`${d.after.name} (after) against ${d.before.name} (before)`, 12, false, '#444'],
    [`cell: change (after - before), ${interval} at 95% simultaneous over the ${family}, verdict (${d.sequential ? 'the anytime-valid test of diff --sequential, ' : ''}Holm q ${d.q} over the ${family})`, 11, false, '#444'],
    [`heavy outline: the change counts toward the verdict. The family is this grid's ${family}, not the diff's conditions x events,`, 11, false, '#444'],
    ['so a cell can differ from the diff\'s row for the same condition (poisson-prove report --json has the figures).', 11, false, '#444'],
    // Cells that pool conditions of one seed (report-grid.ts, sharedSeedsText): said in the image too.
    ...(grid.shared_seeds !== undefined
      ? ([[`cells that pool conditions (up to ${grid.shared_seeds.conditions}) ran them on the same seeds: they are read with the seed as the unit as well (McNemar`, 11, false, '#444'], ['over the seeds; their interval, one over the seeds), since a seed\'s pairs are not independent (poisson-prove report says more).', 11, false, '#444']] as [string, number, boolean, string][])
      : []),
  ];
  const pad = 16;
  const headerH = 24 + (lines.length - 1) * 17;
  // Cells: wide enough for their longest text and their x value.
  const cellTexts = grid.cells.flatMap((c) => (c.row === null ? ['no pairs'] : [fmtInterval(c.row.interval, printDecimals(grid.diff.threshold)), c.row.verdict]));
  // Labels sized as shown: a bidirectional control is drawn as its code point (esc, shownBidi).
  const cw = Math.max(120, ...cellTexts.map((t) => textWidth(t, 12) + 20), ...xs.map((x) => textWidth(shownBidi(x.shown), 12) + 20));
  // Rows tall enough for the rotated y axis title to sit beside them.
  const ch = Math.max(78, grid.y === null ? 0 : Math.ceil((textWidth(grid.y, 12, true) + 16) / ny));
  const yTitleW = grid.y === null ? 0 : 30;
  const yLabelW = Math.max(0, ...ys.map((y) => textWidth(shownBidi(y.shown), 12)));
  const left = pad + yTitleW + yLabelW + 12;
  const top = headerH + 58;
  const good = riseIsGood(grid.event);
  const legendTitle = `colour: better or worse, not the sign: ${grid.event} ${good ? 'rising is better' : 'rising is worse'}; blue, better; red, worse; grey, no pairs`;
  const lw = 300;
  // The legend starts under the grid, but far enough right for its end labels to fit.
  const lx = Math.max(left, pad + Math.ceil(textWidth(`${fmtChange(-end)} worse`, 11) / 2));
  const legendW = lx + Math.max(lw + 40, textWidth(legendTitle, 11));
  const gridW = left + nx * cw + pad;
  const width = Math.max(gridW, legendW + pad, ...lines.map(([t, size, bold]) => pad + textWidth(t, size, bold) + pad), left + textWidth(grid.x, 12, true) + pad);
  const legendH = 84;
  const height = top + ny * ch + legendH;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`);
  out.push(`<title>${esc(`change in the rate of ${grid.event}: ${d.after.name} against ${d.before.name}`)}</title>`);
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  lines.forEach(([t, size, bold, fill], i) => {
    out.push(`<text x="${pad}" y="${24 + i * 17}" font-size="${size}"${bold ? ' font-weight="bold"' : ''} fill="${fill}">${esc(t)}</text>`);
  });
  // x axis title and values.
  out.push(`<text x="${left + (nx * cw) / 2}" y="${top - 30}" text-anchor="middle" font-weight="bold">${esc(grid.x)}</text>`);
  xs.forEach((v, i) => out.push(label(left + i * cw + cw / 2, top - 10, v.shown, v.full, 'text-anchor="middle"')));
  // y axis title and values.
  if (grid.y !== null) {
    const cy = top + (ny * ch) / 2;
    out.push(`<text x="${pad + 8}" y="${cy}" text-anchor="middle" font-weight="bold" transform="rotate(-90 ${pad + 8} ${cy})">${esc(grid.y)}</text>`);
  }
  ys.forEach((v, j) => out.push(label(left - 10, top + j * ch + ch / 2 + 4, v.shown, v.full, 'text-anchor="end"')));
  const outlines: string[] = [];
  grid.y_values.forEach((yv, j) => {
    grid.x_values.forEach((xv, i) => {
      const cell = grid.cells.find((c) => c.x === xv && c.y === yv);
      const row = cell?.row ?? null;
      const x0 = left + i * cw;
      const y0 = top + j * ch;
      const dy = (ch - 78) / 2; // the cell's three lines, centred in a taller row
      const fill = row === null ? '#e0e0e0' : divergingColour(goodness(grid.event, row.change) / end);
      const strong = row !== null && Math.abs(row.change / end) > 0.6;
      const ink = strong ? '#ffffff' : '#111111';
      out.push(`<rect x="${x0}" y="${y0}" width="${cw}" height="${ch}" fill="${fill}" stroke="#ffffff" stroke-width="1"/>`);
      // Heavy outlines go on top of every cell, in a second pass, inset so that the stroke stays inside.
      if (row?.counts_toward_verdict) outlines.push(`<rect x="${x0 + 1.5}" y="${y0 + 1.5}" width="${cw - 3}" height="${ch - 3}" fill="none" stroke="#000" stroke-width="3"/>`);
      if (row === null) {
        out.push(`<text x="${x0 + cw / 2}" y="${y0 + ch / 2 + 4}" text-anchor="middle" fill="#666">no pairs</text>`);
        return;
      }
      out.push(`<text x="${x0 + cw / 2}" y="${y0 + dy + 26}" text-anchor="middle" font-size="16" font-weight="bold" fill="${ink}">${esc(fmtChange(row.change, printDecimals(grid.diff.threshold)))}</text>`);
      out.push(`<text x="${x0 + cw / 2}" y="${y0 + dy + 46}" text-anchor="middle" fill="${ink}">${esc(fmtInterval(row.interval, printDecimals(grid.diff.threshold)))}</text>`);
      out.push(`<text x="${x0 + cw / 2}" y="${y0 + dy + 64}" text-anchor="middle" font-style="italic" fill="${ink}">${esc(row.verdict)}</text>`);
    });
  });
  out.push(...outlines);
  // Legend: a gradient bar from worse (left) to better (right), ticks labelled with the change each end
  // stands for under this event's direction.
  const ly = top + ny * ch + 34;
  out.push('<defs><linearGradient id="scale" x1="0" x2="1" y1="0" y2="0">');
  for (let k = 0; k <= 12; k++) out.push(`<stop offset="${(k / 12).toFixed(4)}" stop-color="${divergingColour((k / 12) * 2 - 1)}"/>`);
  out.push('</linearGradient></defs>');
  out.push(`<text x="${lx}" y="${ly - 10}" font-size="11">${esc(legendTitle)}</text>`);
  out.push(`<rect x="${lx}" y="${ly}" width="${lw}" height="14" fill="url(#scale)" stroke="#999"/>`);
  const ticks: [number, string][] = [
    [-end, `${fmtChange(good ? -end : end)} worse`],
    [0, '0'],
    [end, `${fmtChange(good ? end : -end)} better`],
  ];
  for (const [v, text] of ticks) {
    const tx = lx + ((v / end + 1) / 2) * lw;
    out.push(`<line x1="${tx}" y1="${ly + 14}" x2="${tx}" y2="${ly + 19}" stroke="#333"/>`);
    out.push(`<text x="${tx}" y="${ly + 32}" text-anchor="middle" font-size="11">${esc(text)}</text>`);
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

/** The size of the "partial" line's text: the grid's own (renderGridSvg's root font-size). */
const NOTE_FONT = 12;

/**
 * A report SVG (the grid's or the panels', both 12 px text) with a note drawn under it in red (report's "partial" line),
 * wrapped to the canvas's width as the grid measures its own text ({@link textWidth}; the canvas grows
 * by 16 px a line); or the SVG as it is when `note` is null or the SVG's size cannot be read.
 */
export function svgWithNote(svg: string, note: string | null): string {
  if (note === null) return svg;
  const m = /<svg [^>]*width="(\d+(?:\.\d+)?)" height="(\d+(?:\.\d+)?)" viewBox="0 0 [\d.]+ [\d.]+"/.exec(svg);
  if (!m) return svg;
  const w = Number(m[1]);
  const h = Number(m[2]);
  const lines = wrapWords(note, (line) => textWidth(line, NOTE_FONT) <= w - 16);
  const grow = 8 + 16 * lines.length;
  const head = m[0].replace(`height="${m[2]}"`, `height="${h + grow}"`).replace(/viewBox="0 0 ([\d.]+) [\d.]+"/, `viewBox="0 0 $1 ${h + grow}"`);
  const text = lines.map((l, i) => `<text x="8" y="${h + 16 + 16 * i}" fill="#b00020">${esc(l)}</text>`).join('');
  return svg.replace(m[0], head).replace('</svg>', `<rect y="${h}" width="${w}" height="${grow}" fill="#ffffff"/>${text}\n</svg>`);
}

/** `text` in lines that `fits`, broken at spaces (a word too long for a line stands alone). */
function wrapWords(text: string, fits: (line: string) => boolean): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const longer = line === '' ? word : `${line} ${word}`;
    if (line !== '' && !fits(longer)) {
      lines.push(line);
      line = word;
    } else line = longer;
  }
  if (line !== '') lines.push(line);
  return lines;
}
