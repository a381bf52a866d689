import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachTempDir, memoryIo } from '../__fixtures__/helpers.js';
import { runCli } from '../cli/run-cli.js';
import { sweep } from '../executor/sweep.js';
import { compareRuns } from './compare-runs.js';
import { diffRuns } from './diff-runs.js';

// A sweep records the q, power and method its gate planned with ("False discovery rate for the gate and
// the diff", SweepOptions.q), as it records its events, which a diff reads by default "so the design and
// the reading count the same tests" (STATS.md, "Events"). A review (second session of 2026-12-07): a diff
// of two runs swept at q 0.01, power 0.9, mid-p read them at q 0.05, power 0.8, exact, and said nothing.
const SPEC = `target_id = "registered"
t_unit = "turns"
replicates = 40

[axes.slack]
type = "continuous"
values = [4, 8]
`;
const before = (c: { seed: number }) => ({ outcome: c.seed % 3 === 0 ? 'failed' : 'passed', t: 1 });
const after = (c: { seed: number }) => ({ outcome: c.seed % 4 === 0 ? 'failed' : 'passed', t: 1 });

const t = eachTempDir('registered-reading-');

async function runs(a: { q?: number; power?: number; method?: 'exact' | 'midp' }, b: { q?: number; power?: number; method?: 'exact' | 'midp' } = a): Promise<[string, string, string]> {
  const store = join(t.dir, 'store');
  const ra = await sweep({ spec: SPEC, target: before, store, salt: 's', maxMde: 0.99, ...a, now: new Date('2026-12-01T10:00:00Z') });
  const rb = await sweep({ spec: SPEC, target: after, store, salt: 's', maxMde: 0.99, ...b, now: new Date('2026-12-01T11:00:00Z') });
  return [store, ra.run_id, rb.run_id];
}

describe("a diff reads at the q, power and method the runs' sweeps recorded", () => {
  it('by default, both runs swept at q 0.01, power 0.9, mid-p: read so, with no warning', async () => {
    const [store, a, b] = await runs({ q: 0.01, power: 0.9, method: 'midp' });
    const d = await diffRuns(store, a, b, { events: ['failed'] });
    expect({ q: d.q, power: d.power, test: d.method.test }).toEqual({ q: 0.01, power: 0.9, test: 'mcnemar-midp' });
    expect(d.warnings.filter((w) => w.includes('swept at'))).toEqual([]);
    expect(d.sentence).toContain('Holm q 0.01');
  });

  it('a level given is used; one looser than the recorded one is said, a stricter one is not', async () => {
    const [store, a, b] = await runs({ q: 0.01, power: 0.9, method: 'midp' });
    const d = await diffRuns(store, a, b, { events: ['failed'], q: 0.05, power: 0.8, method: 'exact' });
    expect({ q: d.q, power: d.power, test: d.method.test }).toEqual({ q: 0.05, power: 0.8, test: 'mcnemar-exact' });
    expect(d.warnings).toContain('read at q 0.05 and power 0.8, given, where both runs were swept (their power gate planned) at q 0.01 and power 0.9: a looser reading than the one the sweeps recorded');
    const strict = await diffRuns(store, a, b, { events: ['failed'], q: 0.001, power: 0.95 });
    expect({ q: strict.q, power: strict.power, test: strict.method.test }).toEqual({ q: 0.001, power: 0.95, test: 'mcnemar-midp' });
    expect(strict.warnings.filter((w) => w.includes('swept'))).toEqual([]);
  });

  it('runs swept at different levels are read at the stricter, and the diff says so', async () => {
    const [store, a, b] = await runs({ q: 0.05, power: 0.8 }, { q: 0.01, power: 0.9 });
    const d = await diffRuns(store, a, b, { events: ['failed'] });
    expect({ q: d.q, power: d.power }).toEqual({ q: 0.01, power: 0.9 });
    expect(d.warnings).toContain('the runs were swept at q 0.05 (before) and 0.01 (after), power 0.8 (before) and 0.9 (after): read at the stricter, q 0.01, power 0.9; pass --q or --power to read at another');
  });

  it('runs swept at the defaults read as before (the scripted path): q 0.05, power 0.8, exact, no warning', async () => {
    const [store, a, b] = await runs({});
    const d = await diffRuns(store, a, b, { events: ['failed'] });
    expect({ q: d.q, power: d.power, test: d.method.test }).toEqual({ q: 0.05, power: 0.8, test: 'mcnemar-exact' });
    expect(d.warnings.filter((w) => w.includes('swept at'))).toEqual([]);
  });

  // The session's own review: the next: line left out --q 0.05, --power 0.8 and --method exact as "the
  // defaults", which a report of such runs no longer reads at; the method was said to be "asked with
  // --method midp" when the sweeps had recorded it; and diff BASE C1 C2 read each candidate at its own
  // level, the family's q that of whichever candidate came first.
  it("the next: line names a level only where it differs from the runs' own; the method says where it came from", async () => {
    const [store, a, b] = await runs({ q: 0.01, power: 0.9, method: 'midp' });
    const plain = await diffRuns(store, a, b, { events: ['failed'] });
    expect(plain.next.filter((w) => w.startsWith('--q') || w.startsWith('--power') || w.startsWith('--method'))).toEqual([]);
    expect(plain.method.description).toContain('as the runs were swept (--method midp)');
    const given = await diffRuns(store, a, b, { events: ['failed'], q: 0.05, power: 0.8, method: 'exact' });
    expect(given.next.join(' ')).toContain('--q 0.05 --method exact --power 0.8');
    const asked = await diffRuns(store, a, b, { events: ['failed'], method: 'midp' });
    expect(asked.method.description).toContain('as asked with --method midp');
  });

  it('one baseline and several candidates are read at one level, the strictest, whatever their order', async () => {
    const store = join(t.dir, 'family');
    const base = await sweep({ spec: SPEC, target: before, store, salt: 's', maxMde: 0.99, now: new Date('2026-12-01T10:00:00Z') });
    const loose = await sweep({ spec: SPEC, target: after, store, salt: 's', maxMde: 0.99, now: new Date('2026-12-01T11:00:00Z') });
    const strict = await sweep({ spec: SPEC, target: after, store, salt: 's', maxMde: 0.99, q: 0.01, now: new Date('2026-12-01T12:00:00Z') });
    for (const order of [[loose.run_id, strict.run_id], [strict.run_id, loose.run_id]]) {
      const r = await compareRuns(store, base.run_id, order, { events: ['failed'] });
      expect(r.candidates.map((c) => c.q)).toEqual([0.01, 0.01]);
      expect(r.sentence).toContain('Holm q 0.01');
      for (const c of r.candidates) expect(c.warnings.filter((w) => w.startsWith('the runs were swept at q '))).toHaveLength(1);
    }
  });

  it('the CLI and report read the same level', async () => {
    const [store, a, b] = await runs({ q: 0.01 });
    const io = memoryIo({ cwd: t.dir });
    expect(await runCli(['--store', store, 'diff', a, b, '--event', 'failed', '--json'], io)).toBe(0);
    expect((JSON.parse(io.out()) as { q: number }).q).toBe(0.01);
    const r = memoryIo({ cwd: t.dir });
    expect(await runCli(['--store', store, 'report', a, b, '--x', 'slack', '--event', 'failed'], r)).toBe(0);
    expect(r.out()).toContain('q 0.01');
  });
});

// A review (third session of 2026-12-07): sweep({ q: '0.1' }) recorded "q": "0.1" (the gate now refuses a
// string); a diff of such runs read at 0.05 without a word. A recorded level that is not one is now said.
describe('a recorded level that is not one', () => {
  it('is not read, and the diff says which run records what, naming the flag', async () => {
    const [store, a, b] = await runs({ q: 0.1 });
    for (const id of [a, b]) {
      const file = join(store, id, 'run.json');
      const m = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      await writeFile(file, JSON.stringify({ ...m, q: '0.1' }));
    }
    const d = await diffRuns(store, a, b, { events: ['failed'] });
    expect(d.q).toBe(0.05);
    expect(d.warnings).toContain(
      'before records q "0.1", after records q "0.1", which is not a level a sweep records (q and power: numbers in (0, 1); method: exact, midp, asymptotic, asymptotic-cc): not read; pass --q with the level the sweep meant',
    );
    const given = await diffRuns(store, a, b, { events: ['failed'], q: 0.1 });
    expect(given.warnings.filter((w) => w.includes('not a level'))).toEqual([]);
  });
});
