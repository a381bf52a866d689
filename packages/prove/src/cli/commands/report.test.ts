import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tangoInterval } from 'poisson-stats';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRun, fromTables, seedSpecText, tempStore } from '../../diff/__fixtures__/build-run.js';
import { readRunForDiff } from '../../diff/read-run.js';
import { reportGrid } from '../../diff/report-grid.js';
import { divergingColour } from '../../diff/svg.js';
import { reportGridJson } from '../diff-output.js';
import { runCli } from '../run-cli.js';
import { captureStore as capture } from '../__fixtures__/capture.js';


/** Every text line of the SVG lies inside the image, by the same 0.6 em per character estimate. */
function expectInside(svg: string): void {
  const width = Number(/<svg [^>]*width="(\d+)"/.exec(svg)?.[1]);
  // Every text line starting at x fits: x + 0.6 em per character (font-size 12 unless given; 0.65 em bold)
  // stays within the width; anchored-at-end labels start at x >= 0.
  for (const m of svg.matchAll(/<text x="([\d.]+)" y="[\d.]+"([^>]*)>(?:<title>[^<]*<\/title>)?([^<]*)<\/text>/g)) {
    const [, x, attrs, text] = m as unknown as [string, string, string, string];
    const size = Number(/font-size="(\d+)"/.exec(attrs)?.[1] ?? 12);
    const w = [...text.replace(/&[a-z]+;/g, '_')].length * size * (attrs.includes('bold') ? 0.65 : 0.6);
    const anchor = /text-anchor="(\w+)"/.exec(attrs)?.[1] ?? 'start';
    if (attrs.includes('rotate(')) {
      // The y axis title runs down the side: its extent is vertical, within the image's height.
      const cy = Number(/y="([\d.]+)"/.exec(m[0])?.[1]);
      expect(cy - w / 2).toBeGreaterThanOrEqual(0);
      expect(cy + w / 2).toBeLessThanOrEqual(Number(/<svg [^>]*height="(\d+)"/.exec(svg)?.[1]));
      continue;
    }
    const [lo, hi] = anchor === 'end' ? [Number(x) - w, Number(x)] : anchor === 'middle' ? [Number(x) - w / 2, Number(x) + w / 2] : [Number(x), Number(x) + w];
    expect(lo, text).toBeGreaterThanOrEqual(0);
    expect(hi, text).toBeLessThanOrEqual(width);
  }
}

describe('poisson-prove report', () => {
  let store: string;
  beforeAll(async () => {
    store = await tempStore();
    const spec = seedSpecText(16, [4, 8]);
    const t = fromTables([
      { both: 2, rise: 0, fall: 8, neither: 6 },
      { both: 3, rise: 1, fall: 1, neither: 11 },
    ]);
    await buildRun(store, { specText: spec, outcomes: t.before });
    await buildRun(store, { specText: spec, outcomes: t.after });
  });

  it('prints the grid with the change, the simultaneous interval and the verdict per cell', async () => {
    const c = capture(store);
    expect(await runCli(['--store', store, 'report', '#2', '#1', '--x', 'slack', '--y', 'horizon'], c.io)).toBe(0);
    const lines = c.out().split('\n');
    expect(lines[0]).toMatch(/^significant change  change in the rate of failed, .* b against .* a, per slack x horizon$/);
    // slack 8's table disagrees both ways (rise 1, fall 1): the limits read psi^ + d, and a line says so.
    expect(lines[2]).toMatch(/^discordance +observed up to 0\.500 \(.* plus the change \(psi\^ \+ d\), as some table disagrees both ways\)$/);
    expect(lines[4]).toMatch(/^horizon \\ slack\s+4\s+8$/);
    // slack 4: change (0 - 8)/16 = -0.5, counted; slack 8: 0.
    const t4 = tangoInterval({ both: 2, rise: 0, fall: 8, neither: 6 }, { level: 1 - 0.05 / 2 });
    // printed rounded outward to the thousandth (text-table.ts, fmtInterval): [-0.745, -0.141] for [-0.74442, -0.14156]
    expect(lines[5]).toContain(`-0.500 [${(Math.floor(t4.lower * 1000) / 1000).toFixed(3)}, ${(Math.ceil(t4.upper * 1000) / 1000).toFixed(3)}] lower`);
    expect(lines[5]).toMatch(/0\.000 \[-0\.\d{3}, \+0\.\d{3}\] unchanged$/);
  });

  it('writes an SVG heatmap with axis titles, a legend and a cell per value', async () => {
    const c = capture(store);
    const out = join(store, 'grid.svg');
    expect(await runCli(['--store', store, 'report', '#2', '#1', '--x', 'slack', '--y', 'horizon', '--event', 'failed', '--out', out], c.io)).toBe(0);
    const svg = await readFile(out, 'utf8');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('>slack</text>');
    expect(svg).toContain('transform="rotate(-90');
    expect(svg).toContain('>horizon</text>');
    expect(svg).toContain('linearGradient id="scale"');
    expect(svg).toContain('>-0.500</text>');
    expect(svg).toContain('>lower</text>');
    expect(svg).toContain('stroke="#000" stroke-width="3"');
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    // The legend says what the colours mean for the event; the caption names the family.
    expect(svg).toContain('colour: better or worse, not the sign: failed rising is worse; blue, better; red, worse; grey, no pairs');
    // Colour by good/bad: failed fell by 0.5 (better) in slack 4, so that cell is blue, not red.
    const cell = svg.split('\n').find((l) => l.startsWith('<rect') && l.includes('stroke="#ffffff"') && !l.includes('#f7f7f7') && !l.includes('#e0e0e0'));
    expect(cell).toContain(`fill="${divergingColour(0.5 / 0.5)}"`);
    expect(cell).toContain('#2166ac');
    expect(svg).toContain("The family is this grid's 2 cells");
  });

  it('abbreviates a 64-hex axis value with its full value as a tooltip, and sizes the image to its longest line', async () => {
    const c = capture(store);
    const out = join(store, 'grid-hash.svg');
    expect(await runCli(['--store', store, 'report', '#2', '#1', '--x', 'slack', '--y', 'generator_hash', '--out', out], c.io)).toBe(0);
    const svg = await readFile(out, 'utf8');
    const hash = '49a5f64878314b71ace9bfebeb18050363cefebeedefadf24098778eed895b05';
    expect(svg).toContain(`<title>${hash}</title>49a5f6487831\u2026</text>`);
    expect(svg).not.toContain(`>${hash}</text>`);
    expectInside(svg);
    // Heavy outlines come after every cell (none drawn over them) and are not filled.
    const lastCell = svg.lastIndexOf('stroke="#ffffff" stroke-width="1"');
    const outline = svg.indexOf('fill="none" stroke="#000" stroke-width="3"');
    expect(outline).toBeGreaterThan(lastCell);
  });

  it('keeps a one-row grid (no --y) inside its image, legend labels included', async () => {
    const c = capture(store);
    const out = join(store, 'grid-row.svg');
    expect(await runCli(['--store', store, 'report', '#2', '#1', '--x', 'slack', '--out', out], c.io)).toBe(0);
    expectInside(await readFile(out, 'utf8'));
  });

  it('--json prints exactly the library\'s grid, its diff\'s next: command written as the line', async () => {
    const c = capture(store);
    expect(await runCli(['--store', store, 'report', '#2', '#1', '--x', 'slack', '--json'], c.io)).toBe(0);
    const grid = reportGrid(await readRunForDiff(store, '#2'), await readRunForDiff(store, '#1'), { x: 'slack' });
    expect(JSON.parse(c.out())).toEqual(JSON.parse(JSON.stringify(reportGridJson(grid))));
    expect(typeof (JSON.parse(c.out()) as { diff: { next: unknown } }).diff.next).toBe('string');
    expect(grid.cells.map((x) => x.row?.change)).toEqual([-0.5, 0]);
  });

  it('exits 2 for an unknown axis, naming the axes there are', async () => {
    const c = capture(store);
    expect(await runCli(['--store', store, 'report', '#2', '#1', '--x', 'depth'], c.io)).toBe(2);
    expect(c.err()).toBe('error: --x depth is not an axis of these runs; their axes are generator_hash, horizon, slack, strictness.\n');
  });

  it('exits 2 when several failure events could be meant', async () => {
    const s = await tempStore();
    const spec = seedSpecText(8);
    await buildRun(s, { specText: spec, outcomes: (_c, r) => (r === 0 ? 'failed' : r === 1 ? 'truncated' : 'passed') });
    await buildRun(s, { specText: spec, outcomes: () => 'passed' });
    const c = capture(s);
    expect(await runCli(['--store', s, 'report', '#2', '#1', '--x', 'slack'], c.io)).toBe(2);
    expect(c.err()).toBe('error: The runs hold several failure events (failed, truncated) and a grid shows one; name it with --event, e.g. --event failed.\n');
  });
});
