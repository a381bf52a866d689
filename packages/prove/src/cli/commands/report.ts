import { isAbsolute, resolve } from 'node:path';
import { partialLine, partialRuns } from '../../diff/partial.js';
import { defineCommand } from '../define.js';
import { reportGridJson, reportPanelsJson } from '../diff-output.js';
import { json, proveCommand } from '../format.js';
import { Values } from '../values.js';
import { writeOutputs } from '../write-output.js';
import { noteUnverified } from './unverified-note.js';
import { DIFF_READING_OPTIONS } from './shared.js';

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
    q: { type: 'string', valueName: 'Q', number: { above: 0, below: 1 }, description: 'The rate the verdict and flags are held to.', default: 'the q the runs were swept at (0.05 unless --q was given to sweep)' },
    method: { type: 'string', valueName: 'M', choices: ['exact', 'midp', 'asymptotic', 'asymptotic-cc'], description: 'The paired test.', default: 'the method the runs were swept at (exact unless --method was given to sweep)' },
    partial: { type: 'boolean', description: 'Read runs that are not complete; the text, JSON and SVG then say partial, with the coverage.' },
    power: DIFF_READING_OPTIONS.power,
    sequential: DIFF_READING_OPTIONS.sequential,
    discordance: DIFF_READING_OPTIONS.discordance,
    cluster: { type: 'string', valueName: 'AXIS', description: 'Also read each cell with its pairs clustered by this axis (e.g. task): the clustered McNemar test (Durkalski et al. 2003) and a cluster-robust (CR2) interval per cell, printed as a second grid.' },
  },
  examples: ['poisson-prove --store example-store/runs report "#3" "#2" --x generator_hash --y horizon --event passed --out grid.svg', 'poisson-prove report "#1" "#2" "#3" --x slack --event failed --out panels.svg'],
  async run({ positionals, options, store, io }) {
    const v = new Values(options);
    const x = v.string('x') as string;
    const y = v.string('y');
    const event = v.string('event');
    const out = v.string('out');
    const q = v.number('q');
    const method = v.choice('method', ['exact', 'midp', 'asymptotic', 'asymptotic-cc'] as const);
    const cluster = v.string('cluster');
    const discordance = v.number('discordance');
    const power = v.number('power');
    const sequential = v.flag('sequential');
    if (out !== undefined && !out.toLowerCase().endsWith('.svg')) v.problem(`--out ${out} must name an .svg file, e.g. --out grid.svg.`);
    v.done();
    const more = (positionals['MORE'] as string[] | undefined) ?? [];
    await noteUnverified(store, [positionals['A'] as string, positionals['B'] as string, ...more], io);
    const [{ formatGridText, readReportRuns, reportGrid }, { renderGridSvg, svgWithNote }, { formatPanelsText, renderPanelsSvg, reportPanels }] = await Promise.all([
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
      ...(discordance !== undefined ? { discordance } : {}),
      ...(power !== undefined ? { power } : {}),
      ...(sequential ? { sequential: true } : {}),
    };
    const writeSvg = async (svg: string): Promise<void> => {
      if (out === undefined) return;
      // Opened first, then written in place (writeOutputs); a directory is refused by name.
      await writeOutputs([{ option: '--out', given: out, path: isAbsolute(out) ? out : resolve(io.cwd, out), text: svgWithNote(svg, note), example: 'report.svg' }]);
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
