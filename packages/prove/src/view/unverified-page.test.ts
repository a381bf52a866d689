import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viewStore } from './__fixtures__/view-store.js';
import { serveView } from './serve.js';
import { viewDiff } from './view-diff.js';

// A review: a diff page of a run written before checksums (run.json without `parts`) said nothing of it,
// where diff, report, inspect and view write the note on stderr and the run page says it: the page is
// what is mailed, without the stderr.

/** The page's header lines, label and text. */
function headerLines(html: string): [string, string][] {
  return [...html.matchAll(/<div><b>([^<]*)<\/b> ([^<]*)<\/div>/g)].map((m) => [m[1] as string, m[2] as string]);
}

describe('the diff page of a run written before checksums', () => {
  let store: string;
  let runId: string;
  beforeAll(async () => {
    store = await viewStore();
    // Run b (#2): its checksums removed, as a run written before them has none.
    const { diffRuns } = await import('../diff/diff-runs.js');
    runId = (await diffRuns(store, '#3', '#2')).after.run_id;
    const file = join(store, runId, 'run.json');
    const m = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    delete m['parts'];
    await writeFile(file, JSON.stringify(m, null, 2));
  }, 30_000);
  afterAll(async () => {
    await rm(store, { recursive: true, force: true });
  });

  it('says in its header that the run is unverified, with the command that checks it', async () => {
    const lines = headerLines((await viewDiff(store, '#3', '#2')).html);
    const unverified = lines.filter(([k]) => k === 'unverified').map(([, v]) => v);
    expect(unverified).toHaveLength(1);
    expect(unverified[0]).toContain(`run ${runId}`);
    expect(unverified[0]).toContain(`verify --adopt ${runId}`);
  });

  it('and so does the served page; a page of two verified runs has no such line', async () => {
    const server = await serveView(store, '#3', '#2');
    try {
      const html = await (await fetch(server.url)).text();
      expect(headerLines(html).map(([k]) => k)).toContain('unverified');
    } finally {
      await server.close();
    }
    expect(headerLines((await viewDiff(store, '#3', '#1')).html).map(([k]) => k)).not.toContain('unverified');
  });
});
