import { spawn } from 'node:child_process';
import { platform } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { defineCommand } from '../define.js';
import { UsageError } from '../parse.js';
import { Values } from '../values.js';
import { writeOutputs } from '../write-output.js';
import { DIFF_READING_OPTIONS, diffReadingOptions } from './shared.js';
import { noteUnverified } from './unverified-note.js';

/** Opens a file or URL with the desktop's opener (xdg-open, open, or start); detached, errors ignored. */
function openInBrowser(target: string): void {
  const [cmd, args] = platform() === 'darwin' ? ['open', [target]] : platform() === 'win32' ? ['cmd', ['/c', 'start', '', target]] : ['xdg-open', [target]];
  try {
    const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No opener: the path or URL is printed anyway.
  }
}

export const viewCommand = defineCommand({
  name: 'view',
  summary: 'Write a diff (A B) or a run (A) as one self-contained HTML page, or serve it on 127.0.0.1.',
  description:
    'With two runs: the verdict sentence, a forest plot of each condition\'s change with its simultaneous interval, the ±threshold band and the limits, report\'s heatmap per event, a sortable and filterable table of conditions (counts, p, Holm, BH, verdict), the score comparison and the clustered reading when the report holds them (as diff prints them), and for the condition clicked its discordant pairs (seed, replicate, outcome and t in A and B, error, meta). Colours say better (blue) or worse (red) by the event\'s direction: passed rising is better, a failure event rising is worse. With one run: outcomes by condition, the episodes without an outcome with their errors, and the manifest. The file inlines its style, script and data and loads nothing (it works from file://). Nothing private is written unless --private (cached model answers). --serve serves the page on 127.0.0.1 and reads the pairs from the store when a condition is clicked; Ctrl-C stops it.',
  positionals: [
    { name: 'A', description: 'The run before (or the one run to show).', required: true },
    { name: 'B', description: 'The run after; leave out for a run page.' },
  ],
  options: {
    out: { type: 'string', valueName: 'FILE.html', description: 'Write the page to this file.', default: 'view-<A id>[-<B id>].html in the working directory' },
    open: { type: 'boolean', description: 'Open the page (or the served URL) in the desktop\'s browser.' },
    serve: { type: 'boolean', description: 'Serve the page on 127.0.0.1 instead of writing a file; the pairs are read from the store on demand. Stops on Ctrl-C.' },
    port: { type: 'string', valueName: 'N', number: { min: 0, max: 65535, integer: true }, description: 'With --serve: the port (0 takes a free one).', default: '0' },
    event: { type: 'string', valueName: 'E', multiple: true, description: 'An outcome label to compare (repeat for several).', default: 'as diff' },
    q: { type: 'string', valueName: 'Q', number: { above: 0, below: 1 }, description: 'The rate Holm and Benjamini-Hochberg are held to.', default: 'the q the runs were swept at (0.05 unless --q was given to sweep)' },
    power: DIFF_READING_OPTIONS.power,
    method: { type: 'string', valueName: 'M', choices: ['exact', 'midp', 'asymptotic', 'asymptotic-cc'], description: 'The paired test.', default: 'the method the runs were swept at (exact unless --method was given to sweep)' },
    scores: DIFF_READING_OPTIONS.scores,
    partial: DIFF_READING_OPTIONS.partial,
    cluster: DIFF_READING_OPTIONS.cluster,
    sequential: DIFF_READING_OPTIONS.sequential,
    discordance: DIFF_READING_OPTIONS.discordance,
    limit: { type: 'string', valueName: 'N', number: { min: 0, integer: true }, description: 'At most N discordant pairs per condition x event in the page (with --serve, per request); for a run page, at most N episodes without an outcome.', default: '20 (100 served; 200 for a run page)' },
    private: { type: 'boolean', description: 'Add private details: the cached model answer of each listed episode whose meta holds a cache_key (from <store>/.cache/chat).' },
  },
  examples: ['poisson-prove view "#3" "#2" --out diff.html', 'poisson-prove view "#1" --out run.html', 'poisson-prove view "#3" "#2" --serve --port 8787', 'poisson-prove view "#3" "#2" --sequential --out extended.html'],
  async run({ positionals, options, store, io }) {
    const v = new Values(options);
    const a = positionals['A'] as string;
    const b = positionals['B'] as string | undefined;
    const out = v.string('out');
    const serve = v.flag('serve');
    const port = v.number('port');
    const events = v.list('event');
    const q = v.number('q');
    const method = v.choice('method', ['exact', 'midp', 'asymptotic', 'asymptotic-cc'] as const);
    const limit = v.number('limit');
    const priv = v.flag('private');
    const reading = diffReadingOptions(v);
    const readingGiven = Object.keys(reading).length > 1 || reading.partial;
    if (out !== undefined && !/\.html?$/i.test(out)) v.problem(`--out ${out} must name an .html file, e.g. --out diff.html.`);
    if (out !== undefined && serve) v.problem('--out writes a file and --serve serves the page; give one of them.');
    if (port !== undefined && !serve) v.problem('--port is the port of --serve; add --serve, or leave out --port.');
    if (b === undefined && (events.length > 0 || q !== undefined || method !== undefined || priv || readingGiven)) {
      v.problem('--event, --q, --power, --method, --scores, --partial, --cluster, --sequential, --discordance and --private apply to a diff page; name two runs (view A B), or leave them out for a run page.');
    }
    v.done();
    await noteUnverified(store, b !== undefined ? [a, b] : [a], io);
    const diffOptions = {
      ...(events.length > 0 ? { events } : {}),
      ...(q !== undefined ? { q } : {}),
      ...(method !== undefined ? { method } : {}),
      ...reading,
      ...(limit !== undefined ? { limit } : {}),
      private: priv,
    };
    if (serve) {
      const { serveView } = await import('../../view/serve.js');
      const server = await serveView(store, a, b ?? null, { ...diffOptions, ...(port !== undefined ? { port } : {}) }).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'EADDRINUSE' || err.code === 'EACCES') throw new UsageError([`cannot listen on 127.0.0.1:${port ?? 0} (${err.code}); pass another --port, or --port 0 for a free one.`]);
        throw err;
      });
      io.stdout.write(`serving ${server.url} (127.0.0.1 only; Ctrl-C stops)\n`);
      if (v.flag('open')) openInBrowser(server.url);
      await new Promise<void>((resolveStop) => {
        if (io.signal === undefined) return; // no signal: serve until the process ends
        if (io.signal.aborted) resolveStop();
        else io.signal.addEventListener('abort', () => resolveStop(), { once: true });
      });
      await server.close();
      io.stdout.write('stopped\n');
      return 0;
    }
    let html: string;
    let name: string;
    if (b === undefined) {
      const { viewRun } = await import('../../view/view-diff.js');
      const view = await viewRun(store, a, limit !== undefined ? { limit } : {});
      html = view.html;
      name = `view-${view.run.manifest.run_id}.html`;
    } else {
      const { viewDiff } = await import('../../view/view-diff.js');
      const view = await viewDiff(store, a, b, diffOptions);
      html = view.html;
      name = `view-${view.report.before.run_id}-${view.report.after.run_id}.html`;
    }
    const path = out !== undefined && isAbsolute(out) ? out : resolve(io.cwd, out ?? name);
    // Opened first, then written in place (writeOutputs): a path that cannot be opened is refused by name.
    await writeOutputs([{ option: '--out', given: out ?? name, path, text: html, example: 'view.html' }]);
    io.stdout.write(`wrote ${out ?? name}\n`);
    if (v.flag('open')) openInBrowser(path);
    return 0;
  },
});
