import type { ReportGrid } from './report-grid.js';
import { fmtChange } from './text-table.js';

// ColorBrewer's RdBu diverging scheme (Brewer, colorbrewer2.org), 7 classes: red for a fall in the
// event's rate, blue for a rise, near-white for no change.
const RDBU: readonly [number, number, number][] = [
  [178, 24, 43],
  [239, 138, 98],
  [253, 219, 199],
  [247, 247, 247],
  [209, 229, 240],
  [103, 169, 207],
  [33, 102, 172],
];

/** The colour of a change t in [-1, 1] (relative to the scale's end), interpolated along RdBu. */
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
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The scale's end: the largest |change| (or interval end) shown, rounded up to a tenth; at least 0.1. */
function scaleEnd(grid: ReportGrid): number {
  const m = Math.max(0, ...grid.cells.map((c) => (c.row ? Math.abs(c.row.change) : 0)).filter(Number.isFinite));
  return Math.min(1, Math.max(0.1, Math.ceil(m * 10 - 1e-9) / 10));
}

/**
 * The grid as an SVG heatmap: one cell per x and y value, filled on a diverging scale (ColorBrewer
 * RdBu: red a fall in the event's rate, blue a rise) with the change, its simultaneous interval and
 * its verdict written in it; cells whose change counts toward the verdict get a heavy outline; axis
 * titles name the axes; a legend shows the scale; a title names the runs, the event and the verdict.
 *
 * @param grid - from {@link reportGrid}.
 * @returns a standalone SVG document.
 * @see C. A. Brewer, ColorBrewer 2.0 (colorbrewer2.org), the RdBu scheme.
 */
export function renderGridSvg(grid: ReportGrid): string {
  const cw = 190;
  const ch = 78;
  const left = 150;
  const top = 110;
  const nx = grid.x_values.length;
  const ny = grid.y_values.length;
  const legendH = 90;
  const width = Math.max(left + nx * cw + 30, 560);
  const height = top + ny * ch + legendH;
  const end = scaleEnd(grid);
  const d = grid.diff;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`);
  out.push(`<title>${esc(`change in the rate of ${grid.event}: ${d.after.name} against ${d.before.name}`)}</title>`);
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="16" y="24" font-size="15" font-weight="bold">${esc(`${d.verdict}: change in the rate of ${grid.event}`)}</text>`);
  out.push(`<text x="16" y="42" fill="#444">${esc(`${d.after.name} (after) against ${d.before.name} (before)`)}</text>`);
  out.push(`<text x="16" y="58" fill="#444" font-size="11">${esc(`cell: change, ${d.method.paired ? 'Tango' : 'Newcombe'} interval (95% simultaneous over ${d.tests}), verdict (Holm q ${d.q}); heavy outline: counts toward the verdict`)}</text>`);
  // x axis title and values.
  out.push(`<text x="${left + (nx * cw) / 2}" y="${top - 30}" text-anchor="middle" font-weight="bold">${esc(grid.x)}</text>`);
  grid.x_values.forEach((v, i) => out.push(`<text x="${left + i * cw + cw / 2}" y="${top - 10}" text-anchor="middle">${esc(String(v))}</text>`));
  // y axis title and values.
  if (grid.y !== null) {
    const cy = top + (ny * ch) / 2;
    out.push(`<text x="22" y="${cy}" text-anchor="middle" font-weight="bold" transform="rotate(-90 22 ${cy})">${esc(grid.y)}</text>`);
  }
  grid.y_values.forEach((v, j) => out.push(`<text x="${left - 10}" y="${top + j * ch + ch / 2 + 4}" text-anchor="end">${esc(v === null ? '' : String(v))}</text>`));
  grid.y_values.forEach((yv, j) => {
    grid.x_values.forEach((xv, i) => {
      const cell = grid.cells.find((c) => c.x === xv && c.y === yv);
      const row = cell?.row ?? null;
      const x0 = left + i * cw;
      const y0 = top + j * ch;
      const fill = row === null ? '#e0e0e0' : divergingColour(row.change / end);
      const strong = row !== null && Math.abs(row.change / end) > 0.6;
      const ink = strong ? '#ffffff' : '#111111';
      const outline = row?.counts_toward_verdict ? 'stroke="#000" stroke-width="3"' : 'stroke="#ffffff" stroke-width="1"';
      out.push(`<rect x="${x0}" y="${y0}" width="${cw}" height="${ch}" fill="${fill}" ${outline}/>`);
      if (row === null) {
        out.push(`<text x="${x0 + cw / 2}" y="${y0 + ch / 2 + 4}" text-anchor="middle" fill="#666">no pairs</text>`);
        return;
      }
      out.push(`<text x="${x0 + cw / 2}" y="${y0 + 26}" text-anchor="middle" font-size="16" font-weight="bold" fill="${ink}">${esc(fmtChange(row.change))}</text>`);
      out.push(`<text x="${x0 + cw / 2}" y="${y0 + 46}" text-anchor="middle" fill="${ink}">${esc(`[${fmtChange(row.interval.lower)}, ${fmtChange(row.interval.upper)}]`)}</text>`);
      out.push(`<text x="${x0 + cw / 2}" y="${y0 + 64}" text-anchor="middle" font-style="italic" fill="${ink}">${esc(row.verdict)}</text>`);
    });
  });
  // Legend: a gradient bar from -end to +end.
  const ly = top + ny * ch + 30;
  const lw = 300;
  out.push('<defs><linearGradient id="scale" x1="0" x2="1" y1="0" y2="0">');
  for (let k = 0; k <= 12; k++) out.push(`<stop offset="${(k / 12).toFixed(4)}" stop-color="${divergingColour((k / 12) * 2 - 1)}"/>`);
  out.push('</linearGradient></defs>');
  out.push(`<text x="${left}" y="${ly - 8}" font-size="11">${esc(`change in the rate of ${grid.event} (after - before)`)}</text>`);
  out.push(`<rect x="${left}" y="${ly}" width="${lw}" height="14" fill="url(#scale)" stroke="#999"/>`);
  const ticks: [number, string][] = [
    [-end, `${fmtChange(-end)} fell`],
    [0, '0'],
    [end, `${fmtChange(end)} rose`],
  ];
  for (const [v, label] of ticks) {
    const tx = left + ((v / end + 1) / 2) * lw;
    out.push(`<line x1="${tx}" y1="${ly + 14}" x2="${tx}" y2="${ly + 19}" stroke="#333"/>`);
    out.push(`<text x="${tx}" y="${ly + 32}" text-anchor="middle" font-size="11">${esc(label)}</text>`);
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
