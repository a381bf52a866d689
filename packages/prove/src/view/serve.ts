import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { columnsPairLister } from '../diff/pairs.js';
import { addPairDetails } from '../diff/read-pairs.js';
import { renderDiffPage } from './diff-page.js';
import { diffHeatmaps, readViewDiff, unverifiedRuns, viewRun, type ViewDiffOptions } from './view-diff.js';

/** Options of {@link serveView}. */
export type ServeOptions = Omit<ViewDiffOptions, 'serve'> & {
  /** The port on 127.0.0.1; 0 (the default) takes a free one. */
  readonly port?: number;
  /** Most pairs one request lists per condition x event; default 100. */
  readonly limit?: number;
};

/** A running view server. */
export type ViewServer = {
  /** `http://127.0.0.1:PORT/`. */
  readonly url: string;
  readonly port: number;
  /** Stops accepting, ends open connections, and resolves when the server is closed. */
  close(): Promise<void>;
};

/** Requests waiting for the store at once, beyond which the server answers 503 (the reads are one at a time). */
const MAX_WAITING = 8;

/**
 * Serves the view of a diff (or of one run, with `b` null) on 127.0.0.1 only, for stores too large to
 * inline: `/` is the page (as {@link viewDiff}'s, without the pairs), and `/pairs?condition=LABEL`
 * returns that condition's discordant pairs as JSON, read from the store when asked (only the listed
 * episodes' error and meta; one read at a time, at most 8 waiting, `limit` pairs per condition x event).
 * Requests whose Host is not the loopback address are refused (403), so another site cannot read the
 * store through the browser.
 *
 * @param store - the store directory.
 * @param a - run A (or the one run).
 * @param b - run B, or null for a run page.
 * @param options - {@link ServeOptions}.
 * @returns the {@link ViewServer}, listening.
 * @throws RefError (exit 2) for a ref that names no run; DiffError as `diffRuns`; the listen error
 *   (EADDRINUSE) when the port is taken.
 */
export async function serveView(store: string, a: string, b: string | null, options: ServeOptions = {}): Promise<ViewServer> {
  const { port: wanted, limit, private: priv, ...diffOptions } = options;
  const pairLimit = limit ?? 100;
  let page: string;
  let pairsOf: ((condition: string) => Promise<unknown>) | null = null;
  if (b === null) {
    // --limit bounds the episodes without an outcome the run page lists, as `view A --out` does.
    page = (await viewRun(store, a, limit !== undefined ? { limit } : {})).html;
  } else {
    const { before, after, report, noPairs } = await readViewDiff(store, a, b, diffOptions);
    page = renderDiffPage({ report, pairs: null, heatmaps: diffHeatmaps(before, after, report, diffOptions.method, store), serve: true, store, noPairs, unverified: unverifiedRuns(before, after), private: priv === true });
    const conditions = new Set(report.rows.map((r) => r.condition));
    // The runs stay as columns, indexed once; a request lists one condition's pairs, paired on it alone.
    let lister: ReturnType<typeof columnsPairLister> | null = null;
    pairsOf = async (condition) => {
      if (!conditions.has(condition)) return null;
      lister ??= columnsPairLister(before, after);
      const listed = lister({ events: report.events, sequential: report.sequential, limit: pairLimit, condition });
      return addPairDetails(store, listed, { private: priv === true });
    };
  }
  let queue: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  const send = (res: ServerResponse, status: number, type: string, body: string): void => {
    res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    res.end(body);
  };
  let port = 0;
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return send(res, 403, 'text/plain', 'this server answers only on 127.0.0.1');
    if (req.method !== 'GET') return send(res, 405, 'text/plain', 'GET only');
    // A request target URL cannot read (`GET http://[`) is the client's error, not the server's end.
    let url: URL;
    try {
      url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    } catch {
      return send(res, 400, 'text/plain', 'a request target that is not a URL; ask for / or /pairs?condition=LABEL');
    }
    if (url.pathname === '/') return send(res, 200, 'text/html', page);
    if (url.pathname === '/pairs' && pairsOf !== null) {
      const condition = url.searchParams.get('condition');
      if (condition === null) return send(res, 400, 'text/plain', 'name a condition: /pairs?condition=LABEL');
      if (waiting >= MAX_WAITING) return send(res, 503, 'text/plain', 'busy reading the store; try again');
      waiting++;
      const job = queue.then(() => (pairsOf as (c: string) => Promise<unknown>)(condition));
      queue = job.catch(() => undefined);
      job.then(
        (pairs) => (pairs === null ? send(res, 404, 'text/plain', `no condition ${condition} in this diff`) : send(res, 200, 'application/json', JSON.stringify(pairs))),
        (err: unknown) => send(res, 500, 'text/plain', err instanceof Error ? err.message : String(err)),
      ).finally(() => waiting--);
      return;
    }
    send(res, 404, 'text/plain', 'not found');
  };
  const server = createServer(handle);
  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(wanted ?? 0, '127.0.0.1', () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  });
  port = (server.address() as AddressInfo).port;
  return Object.freeze({
    url: `http://127.0.0.1:${port}/`,
    port,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      }),
  });
}
