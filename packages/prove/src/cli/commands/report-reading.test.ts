// report reads its cells as diff does: --sequential (the anytime-valid test, for runs extended after a
// look) and --power (the limits' power). Until the fourth session of 2026-12-06 report had neither: its
// looks line sent the user to diff --sequential, and the view page's heatmap note said report itself
// read the fixed-n test, so its verdicts could differ from the page's.
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRun, fromTables, seedSpecText, tempStore } from '../../diff/__fixtures__/build-run.js';
import { captureStore } from '../__fixtures__/capture.js';
import { runCli } from '../run-cli.js';

let store: string;
beforeAll(async () => {
  store = await tempStore();
  const o = fromTables([{ both: 2, rise: 9, fall: 1, neither: 52 }]);
  await buildRun(store, { specText: seedSpecText(64), maxMde: 0.5, outcomes: o.before, now: new Date('2026-12-06T10:00:00Z') });
  await buildRun(store, { specText: seedSpecText(64), maxMde: 0.5, outcomes: o.after, now: new Date('2026-12-06T10:00:01Z') });
}, 60_000);

type Grid = { diff: { sequential: boolean; power: number; method: { test: string }; rows: { p: number; limit_rise: unknown }[] } };

describe('report --sequential, --power', () => {
  it('reads each cell as diff --sequential and diff --power do', async () => {
    const read = async (...args: string[]): Promise<Grid> => {
      const io = captureStore(store);
      expect(await runCli(['--store', store, 'report', '#2', '#1', '--x', 'slack', '--json', ...args], io.io), io.err()).toBe(0);
      return JSON.parse(io.out()) as Grid;
    };
    const diffOf = async (...args: string[]): Promise<Grid['diff']> => {
      const io = captureStore(store);
      expect(await runCli(['--store', store, 'diff', '#2', '#1', '--json', ...args], io.io), io.err()).toBe(0);
      return JSON.parse(io.out()) as Grid['diff'];
    };
    const fixed = await read();
    const sequential = await read('--sequential');
    expect([fixed.diff.sequential, sequential.diff.sequential]).toEqual([false, true]);
    expect(sequential.diff.method.test).toBe('mcnemar-sequential');
    expect(sequential.diff.rows[0]?.p).toBe((await diffOf('--sequential')).rows[0]?.p);
    expect(sequential.diff.rows[0]?.p).not.toBe(fixed.diff.rows[0]?.p);
    const power = await read('--power', '0.9');
    expect(power.diff.power).toBe(0.9);
    expect(power.diff.rows[0]?.limit_rise).toEqual((await diffOf('--power', '0.9')).rows[0]?.limit_rise);
    expect(power.diff.rows[0]?.limit_rise).not.toEqual(fixed.diff.rows[0]?.limit_rise);
  });

  // A review of this change: diff's next: command, and report's own, dropped --sequential and --power (and
  // --q, --method), so the report they named read its cells otherwise; the page's note dropped --q and --method.
  it('the next: command carries the reading (--q, --method, --power, --sequential) where it is not the default', async () => {
    const nextOf = async (verb: 'diff' | 'report', ...args: string[]): Promise<string[]> => {
      const io = captureStore(store);
      expect(await runCli(['--store', store, verb, '#2', '#1', '--json', ...(verb === 'report' ? ['--x', 'slack'] : []), ...args], io.io), io.err()).toBe(0);
      const out = JSON.parse(io.out()) as { next: string[] | string; diff?: { next: string[] } };
      const next = verb === 'report' ? (out.diff?.next ?? []) : out.next;
      return typeof next === 'string' ? next.split(' ') : next;
    };
    expect(await nextOf('diff')).not.toContain('--q');
    const read = await nextOf('diff', '--q', '0.1', '--method', 'midp', '--power', '0.9');
    expect(read.slice(-6)).toEqual(['--q', '0.1', '--method', 'midp', '--power', '0.9']);
    const sequential = await nextOf('diff', '--sequential', '--power', '0.9');
    expect(sequential.slice(-3)).toEqual(['--power', '0.9', '--sequential']);
    expect((await nextOf('report', '--sequential')).at(-1)).toBe('--sequential');
  });
});
