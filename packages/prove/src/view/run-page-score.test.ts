import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildRun, tempStore } from '../diff/__fixtures__/build-run.js';
import { viewRun } from './view-diff.js';

// A review: the run page listed an episode that holds a score but no outcome (as an import stores a score
// between 0 and 1) with its error ("-") and meta only, where inspect lists its t and its score.

const SPEC = ['target_id = "scores"', 't_unit = "turns"', 'replicates = 4', '[axes.task]', 'type = "categorical"', 'values = ["t1"]', ''].join('\n');

/** The cells of the page's table of episodes without an outcome, row by row. */
function errorRows(html: string): string[][] {
  const table = html.slice(html.indexOf('<table id="errors">'));
  const body = table.slice(0, table.indexOf('</table>'));
  return [...body.matchAll(/<tr>(.*?)<\/tr>/gs)].map((m) => [...(m[1] as string).matchAll(/<t[dh][^>]*>(.*?)<\/t[dh]>/gs)].map((c) => (c[1] as string).replace(/<[^>]+>/g, '')));
}

describe('the run page of a run with episodes that hold a score but no outcome', () => {
  it('lists each with its t and its score, as inspect does', async () => {
    const store = await tempStore();
    const m = await buildRun(store, {
      specText: SPEC,
      outcomes: () => 'passed',
      extra: (_v, _c, r) => (r === 1 ? { outcome: null, score: 0.5, t: 3 } : r === 2 ? { outcome: null, error: 'boom' } : {}),
    });
    const html = (await viewRun(store, m.run_id)).html;
    await rm(store, { recursive: true, force: true });
    const rows = errorRows(html);
    const head = rows[0] as string[];
    const at = (row: string[], name: string): string | undefined => row[head.indexOf(name)];
    expect(head).toContain('score');
    expect(head).toContain('t');
    const scored = rows.find((r) => at(r, 'replicate') === '1') as string[];
    expect([at(scored, 'score'), at(scored, 't'), at(scored, 'error')]).toEqual(['0.5', '3', '-']);
    const crashed = rows.find((r) => at(r, 'replicate') === '2') as string[];
    expect([at(crashed, 'score'), at(crashed, 'error')]).toEqual(['-', 'boom']);
  });
});
