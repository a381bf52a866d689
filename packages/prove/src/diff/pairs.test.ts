import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { buildRun, fromTables, seedSpecText, tempStore } from './__fixtures__/build-run.js';
import { diffRuns } from './diff-runs.js';
import { discordantPairs } from './pairs.js';
import { readDiscordantPairs } from './read-pairs.js';
import { readRunForDiff } from './read-run.js';
import { capture } from '../cli/__fixtures__/capture.js';


const KEY = 'ab'.repeat(32);
const ANSWER = 'PRIVATE-ANSWER-7f3e: the model said this';

describe('discordant pairs', () => {
  let store: string;
  // Two conditions (slack 4, 8): slack 4 has both 2, rise 1, fall 3, neither 2; slack 8 has no discordant pair.
  const tables = [
    { both: 2, rise: 1, fall: 3, neither: 2 },
    { both: 4, rise: 0, fall: 0, neither: 4 },
  ];
  beforeAll(async () => {
    store = await tempStore();
    const spec = seedSpecText(8, [4, 8]);
    const o = fromTables(tables);
    const extra = (which: string) => (_v: unknown, c: number, r: number) => ({ meta: JSON.stringify({ which, c, r, cache_key: KEY }), t: 10 * c + r });
    await buildRun(store, { specText: spec, now: new Date('2026-11-06T23:13:18Z'), outcomes: o.before, extra: extra('A') });
    await buildRun(store, { specText: spec, now: new Date('2026-11-06T23:13:21Z'), outcomes: o.after, extra: extra('B') });
    await mkdir(join(store, '.cache', 'chat', 'ab'), { recursive: true });
    await writeFile(join(store, '.cache', 'chat', 'ab', `${KEY}.json`), JSON.stringify({ key: KEY, completion: { content: ANSWER } }));
  });

  it('lists exactly the rise and fall pairs of the paired table, by replicate', async () => {
    const a = await readRunForDiff(store, '#2');
    const b = await readRunForDiff(store, '#1');
    const p = discordantPairs(a, b, { events: ['failed'] });
    expect(p.paired).toBe(true);
    const g = p.groups.find((x) => x.condition.includes('slack 4'));
    expect(g).toMatchObject({ rise: 1, fall: 3, truncated: false });
    // fromTables: replicate 2 rises (passed -> failed), 3..5 fall (failed -> passed).
    expect(g?.pairs.map((x) => [x.replicate_index, x.direction, x.before.outcome, x.after.outcome])).toEqual([
      [2, 'rise', 'passed', 'failed'],
      [3, 'fall', 'failed', 'passed'],
      [4, 'fall', 'failed', 'passed'],
      [5, 'fall', 'failed', 'passed'],
    ]);
    expect(p.groups.find((x) => x.condition.includes('slack 8'))).toMatchObject({ rise: 0, fall: 0, pairs: [] });
    // The counts agree with the diff's paired table.
    const report = await diffRuns(store, '#2', '#1', { events: ['failed'] });
    for (const row of report.rows) {
      const grp = p.groups.find((x) => x.condition === row.condition && x.event === row.event);
      expect([grp?.rise, grp?.fall]).toEqual([row.counts?.rise, row.counts?.fall]);
    }
    // The limit lists the first pairs and says more exist.
    const one = discordantPairs(a, b, { events: ['failed'], limit: 1 });
    expect(one.groups[0]).toMatchObject({ rise: 1, fall: 3, truncated: true });
    expect(one.groups[0]?.pairs).toHaveLength(1);
  });

  it('reads each side\'s seed, t and meta from the store, and the cached answer only when private', async () => {
    const report = await diffRuns(store, '#2', '#1', { events: ['failed'] });
    const p = await readDiscordantPairs(store, report);
    // A review (2026-12-07): a string limit read "discordantPairs: limit must be ..., got 2" (another
    // function's name, and the string's quotes lost); and diffRuns' q named diffEpisodes.
    await expect(readDiscordantPairs(store, report, { limit: '2' as never })).rejects.toThrow(new RangeError('readDiscordantPairs: limit must be an integer >= 0, got "2"'));
    await expect(diffRuns(store, '#2', '#1', { q: '0.1' as never })).rejects.toThrow(new RangeError('diffRuns: options.q must be a number in (0, 1), got "0.1"'));
    const first = p.groups[0]?.pairs[0];
    expect(first?.seed).toMatch(/^\d+$/);
    expect(first?.before.meta).toEqual({ which: 'A', c: 0, r: 2, cache_key: KEY });
    expect(first?.after.meta).toEqual({ which: 'B', c: 0, r: 2, cache_key: KEY });
    expect(first?.before.t).toBe(2);
    expect(JSON.stringify(p)).not.toContain(ANSWER);
    const priv = await readDiscordantPairs(store, report, { private: true });
    expect(priv.private).toBe(true);
    expect(priv.groups[0]?.pairs[0]?.after.answer).toBe(ANSWER);
  });

  it('diff --show pairs prints them in the terminal and --json has the same pairs', async () => {
    const c = capture(store);
    expect(await runCli(['--store', store, 'diff', '#2', '#1', '--event', 'failed', '--show', 'pairs'], c.io)).toBe(0);
    const text = c.out();
    expect(text).toContain('discordant pairs  the seeds whose event happened in one run only');
    expect(text).toMatch(/slack 4 · strictness strict {2}failed: 1 rise, 3 fall/);
    expect(text).toMatch(/\n {2}rise +2 +\d+ +passed +failed +2 +2 +- +-\n/);
    expect(text).toContain('meta A  {"which":"A","c":0,"r":2,');
    expect(text).not.toContain(ANSWER);
    const j = capture(store);
    expect(await runCli(['--store', store, 'diff', '#2', '#1', '--event', 'failed', '--show', 'pairs', '--json'], j.io)).toBe(0);
    const doc = JSON.parse(j.out()) as { verdict: string; pairs: unknown };
    const report = await diffRuns(store, '#2', '#1', { events: ['failed'] });
    expect(doc.verdict).toBe(report.verdict);
    expect(doc.pairs).toEqual(JSON.parse(JSON.stringify(await readDiscordantPairs(store, report))));
    const p = capture(store);
    expect(await runCli(['--store', store, 'diff', '#2', '#1', '--event', 'failed', '--show', 'pairs', '--private'], p.io)).toBe(0);
    expect(p.out()).toContain(`answer B  ${JSON.stringify(ANSWER)}`);
  });

  it('--limit and --private without --show pairs exit 2 and say why', async () => {
    const c = capture(store);
    expect(await runCli(['--store', store, 'diff', '#2', '#1', '--limit', '3'], c.io)).toBe(2);
    expect(c.err()).toBe('error: --limit counts the pairs of --show pairs; add --show pairs, or leave out --limit.\n');
  });
});
