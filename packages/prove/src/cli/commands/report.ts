import { writeFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { partialLine, partialRuns } from '../../diff/partial.js';
import { StoreError } from '../../errors.js';
import { defineCommand } from '../define.js';
import { reportGridJson, reportPanelsJson } from '../diff-output.js';
import { json, proveCommand } from '../format.js';
import { Values } from '../values.js';
import { noteUnverified } from './unverified-note.js';

export const reportCommand = defineCommand({
  name: 'report',
  summary: 'The change per cell of an x-by-y grid of two runs, as a text table and an SVG heatmap.',
  description:
    'Each cell pools the conditions sharing its x and y values and shows the change in the event\'s rate, its simultaneous interval and its verdict (the diff read over the cells). --out writes an SVG heatmap on a diverging scale with a legend and axis titles.',
  positionals: [
    { name: 'A', description: 'The run before.', required: true },
    { name: 'B', description: 'The run after.', required: true },
    { name: 'MORE', description: 'More candidates against A: one grid and one heatmap panel per candidate (B first).', variadic: true },
  ],
  options: {
    x: { type: 'string', valueName: 'AXIS', required: true, description: 'The axis across the grid.' },
    y: { type: 'string', valueName: 'AXIS', description: 'The axis down the grid.', default: 'one row' },
    event: { type: 'string', valueName: 'E', description: 'The outcome label to show.', default: 'the one failure event the runs hold' },
    out: { type: 'string', valueName: 'FILE.svg', description: 'Write the SVG heatmap to this file.' },
    json: { type: 'boolean', description: 'Print the grid (cells with their rows, and the diff over the cells) as one JSON document.' },
    q: { type: 'string', valueName: 'Q', number: { above: 0, below: 1 }, description: 'The rate the verdict and flags are held to.', default: '0.05' },
    method: { type: 'string', valueName: 'M', choices: ['exact', 'midp', 'asymptotic', 'asymptotic-cc'], description: 'The paired test.', default: 'exact' },
    partial: { type: 'boolean', description: 'Read runs that are not complete; the text, JSON and SVG then say partial, with the coverage.' },
    cluster: { type: 'string', valueName: 'AXIS', description: 'Also read each cell with its pairs clustered by this axis (e.g. task): the clustered McNemar test (Durkalski et al. 2003) and a cluster-robust (CR1) interval per cell, printed as a second grid.' },
  },
  examples: ['poisson-prove report "#2" "#1" --x slack --y horizon --event failed --out grid.svg', 'poisson-prove report "#1" "#2" "#3" --x slack --event failed --out panels.svg'],
  async run({ positionals, options, store, io }) {
    const v = new Values(options);
    const x = v.string('x') as string;
    const y = v.string('y');
    const event = v.string('event');
    const out = v.string('out');
    const q = v.number('q');
    const method = v.choice('method', ['exact', 'midp', 'asymptotic', 'asymptotic-cc'] as const);
    const cluster = v.string('cluster');
    if (out !== undefined && !out.toLowerCase().endsWith('.svg')) v.problem(`--out ${out} must name an .svg file, e.g. --out grid.svg.`);
    v.done();
    const more = (positionals['MORE'] as string[] | undefined) ?? [];
    await noteUnverified(store, [positionals['A'] as string, positionals['B'] as string, ...more], io);
    const [{ formatGridText, readReportRuns, reportGrid }, { renderGridSvg }, { formatPanelsText, renderPanelsSvg, reportPanels }] = await Promise.all([
      import('../../diff/report-grid.js'),
      import('../../diff/svg.js'),
      import('../../diff/report-panels.js'),
    ]);
    const read = { partial: v.flag('partial'), verb: 'report' };
    const [a, b, ...rest] = await readReportRuns(store, [positionals['A'] as string, positionals['B'] as string, ...more], read);
    const partial = partialRuns([a!, b!, ...rest]);
    const note = partialLine(partial);
    const opts = {
      x,
      ...(y !== undefined ? { y } : {}),
      ...(event !== undefined ? { event } : {}),
      ...(q !== undefined ? { q } : {}),
      ...(method !== undefined ? { method } : {}),
      ...(cluster !== undefined ? { cluster } : {}),
    };
    const writeSvg = async (svg: string): Promise<void> => {
      if (out === undefined) return;
      const path = isAbsolute(out) ? out : resolve(io.cwd, out);
      await writeFile(path, svgWithNote(svg, note)).catch((err: NodeJS.ErrnoException) => {
        throw new StoreError(`cannot write ${path} (${err.code ?? err.message}); pass --out with a writable path.`);
      });
    };
    if (rest.length > 0) {
      const panels = reportPanels(a!, [b!, ...rest], opts);
      await writeSvg(renderPanelsSvg(panels));
      if (v.flag('json')) io.stdout.write(json(reportPanelsJson(panels, proveCommand({ store, io }))));
      else io.stdout.write(`${formatPanelsText(panels)}${out !== undefined ? `\nwrote ${out}\n` : ''}`);
      return 0;
    }
    const grid = reportGrid(a!, b!, opts);
    await writeSvg(renderGridSvg(grid));
    if (v.flag('json')) io.stdout.write(json(partial.length > 0 ? { ...reportGridJson(grid, proveCommand({ store, io })), partial } : reportGridJson(grid, proveCommand({ store, io }))));
    else io.stdout.write(`${note !== null ? `${note}\n` : ''}${formatGridText(grid)}${out !== undefined ? `\nwrote ${out}\n` : ''}`);
    return 0;
  },
});

/**
 * The SVG with the "partial" line drawn under it, wrapped to the canvas's width (~6.5 px a character of
 * the default 11 px sans-serif; the canvas grows by 16 px a line), or as it is.
 */
function svgWithNote(svg: string, note: string | null): string {
  if (note === null) return svg;
  const m = /<svg [^>]*width="(\d+(?:\.\d+)?)" height="(\d+(?:\.\d+)?)" viewBox="0 0 [\d.]+ [\d.]+"/.exec(svg);
  if (!m) return svg;
  const w = Number(m[1]);
  const h = Number(m[2]);
  const lines = wrapWords(note, Math.max(40, Math.floor((w - 16) / 6.5)));
  const grow = 8 + 16 * lines.length;
  const esc = (t: string): string => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const head = m[0].replace(`height="${m[2]}"`, `height="${h + grow}"`).replace(/viewBox="0 0 ([\d.]+) [\d.]+"/, `viewBox="0 0 $1 ${h + grow}"`);
  const text = lines.map((l, i) => `<text x="8" y="${h + 16 + 16 * i}" fill="#b00020">${esc(l)}</text>`).join('');
  return svg.replace(m[0], head).replace('</svg>', `<rect y="${h}" width="${w}" height="${grow}" fill="#ffffff"/>${text}\n</svg>`);
}

/** `text` in lines of at most `width` characters, broken at spaces (a longer word stands alone). */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}
