// Outcome labels named like Object.prototype's members, through every reader of the CLI (a review,
// 2026-12-06): run.json, inspect, inspect --json and the run page dropped the `__proto__` episodes that
// export --json and diff --json counted, and a run of `constructor` or `toString` episodes was written
// with a count "function Object() { [native code] }1", which runs, inspect and view refused as damaged.
import type { TargetConfig } from 'poisson-core';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SPEC, eachTempDir, memoryIo } from '../__fixtures__/helpers.js';
import { sweep } from '../executor/sweep.js';
import { readManifest, writeManifest } from '../store/manifest.js';
import { runCli } from './run-cli.js';
import { runSummary } from './format.js';

const temp = eachTempDir();

const LABELS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'passed'] as const;
/** Run A's outcome of replicate r of a condition, and run B's (another label on some seeds). */
const outcomeA = (slack: number, r: number): string => LABELS[(r + (slack === 8 ? 2 : 0)) % LABELS.length] as string;
const outcomeB = (slack: number, r: number): string => (r % 3 === 0 ? '__proto__' : outcomeA(slack, r));
const target = (of: typeof outcomeA) => (cfg: TargetConfig) => ({ outcome: of(cfg['slack'] as number, cfg.replicate_index), t: 1 });

/** Per condition label, label to count, of 8 replicates. */
function expected(of: typeof outcomeA): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const slack of [4, 8]) {
    const m = new Map<string, number>();
    for (let r = 0; r < 8; r++) m.set(of(slack, r), (m.get(of(slack, r)) ?? 0) + 1);
    out.set(`slack ${slack} · strictness strict`, m);
  }
  return out;
}
const sorted = (m: Map<string, number> | [string, unknown][]): [string, unknown][] => [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
const total = (e: Map<string, Map<string, number>>): Map<string, number> => {
  const t = new Map<string, number>();
  for (const m of e.values()) for (const [k, n] of m) t.set(k, (t.get(k) ?? 0) + n);
  return t;
};
/** The summary `label n, label n` in label order. */
const summary = (m: Map<string, number>): string => sorted(m).map(([k, n]) => `${k} ${String(n)}`).join(', ');

async function cli(dir: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo({ cwd: dir });
  const code = await runCli(['--store', join(dir, 'store'), ...args], io);
  return { code, out: io.out(), err: io.err() };
}

describe('outcome labels __proto__, constructor, toString, hasOwnProperty, valueOf', () => {
  it('are counted alike by sweep, runs, inspect, inspect --json, export --json, diff --json, view and verify', async () => {
    const { dir } = temp;
    const store = join(dir, 'store');
    const a = await sweep({ spec: SPEC, target: target(outcomeA), store, maxMde: 0.99, salt: 's' });
    const b = await sweep({ spec: SPEC, target: target(outcomeB), store, maxMde: 0.99, salt: 's' });
    const ea = expected(outcomeA);
    const eb = expected(outcomeB);
    expect(runSummary('sweep', a).split('\n')[0]).toBe(`ok ${a.name} (${a.run_id}) sweep: 16 episodes; ${summary(total(ea))}`);
    expect(sorted(Object.entries(b.counts.outcomes))).toEqual(sorted(total(eb)));

    const runs = await cli(dir, 'runs');
    expect(runs.code).toBe(0);
    expect(runs.out).toMatch(/^ok 2 runs in /);

    const text = await cli(dir, 'inspect', a.run_id);
    expect(text.code).toBe(0);
    expect(text.out).toContain(`\nrows          16; ${summary(total(ea))}\n`);
    const head = text.out.split('\n').find((l) => l.startsWith('condition')) as string;
    expect(head.split(/ {2,}/)).toEqual(['condition', 'rows', ...sorted(total(ea)).map(([k]) => k), 'without-an-outcome']);
    for (const [c, m] of ea) {
      const line = text.out.split('\n').find((l) => l.startsWith(c)) as string;
      expect(line.slice(c.length).trim().split(/ +/)).toEqual(['8', ...sorted(total(ea)).map(([k]) => String(m.get(k) ?? 0)), '0']);
    }

    const js = await cli(dir, 'inspect', a.run_id, '--json', '--event', '__proto__');
    const inspected = JSON.parse(js.out) as { manifest: { counts: { outcomes: object } }; conditions: { condition: string; outcomes: object }[]; matching: number };
    expect(sorted(Object.entries(inspected.manifest.counts.outcomes))).toEqual(sorted(total(ea)));
    expect(inspected.conditions.map((c) => [c.condition, sorted(Object.entries(c.outcomes))])).toEqual([...ea].map(([c, m]) => [c, sorted(m)]));
    expect(inspected.matching).toBe(total(ea).get('__proto__'));
    // run.json as written: the label is a key of a plain JSON object.
    expect(await readFile(join(store, a.run_id, 'run.json'), 'utf8')).toContain(`"__proto__": ${String(total(ea).get('__proto__'))}`);

    const exported = JSON.parse((await cli(dir, 'export', a.run_id, '--json')).out) as { rows: { condition: string; outcomes: { outcome: string; count: number }[] }[] };
    expect(exported.rows.map((r) => [r.condition, sorted(r.outcomes.filter((o) => o.count > 0).map((o) => [o.outcome, o.count]))])).toEqual([...ea].map(([c, m]) => [c, sorted(m)]));

    const diff = await cli(dir, 'diff', a.run_id, b.run_id, '--json');
    expect(diff.err).not.toMatch(/damaged|internal error/);
    const report = JSON.parse(diff.out) as { rows: { condition: string; event: string; samples: { before: { events: number }; after: { events: number } } }[] };
    const proto = report.rows.filter((r) => r.event === '__proto__').map((r) => [r.condition, r.samples.before.events, r.samples.after.events]);
    expect(proto).toEqual([...ea].map(([c, m]) => [c, m.get('__proto__'), eb.get(c)?.get('__proto__')]));

    const page = join(dir, 'run.html');
    expect((await cli(dir, 'view', a.run_id, '--out', page)).code).toBe(0);
    const html = await readFile(page, 'utf8');
    // The verdict lists `passed` first, then the others in label order.
    const t = total(ea);
    const byPage = [['passed', t.get('passed')], ...sorted(t).filter(([k]) => k !== 'passed')].map(([k, n]) => `${String(k)} ${String(n)}`).join(', ');
    expect(html).toContain(`<p class="verdict" id="verdict">complete: 16 episodes, ${byPage}</p>`);
    const pageRows = [...html.matchAll(/<tr data-condition="([^"]*)"[^>]*>(.*?)<\/tr>/g)].map((m) => [m[1], (m[2] as string).replace(/<div class="bar">.*<\/div>/, '').replace(/<[^>]+>/g, ' ').trim().split(/\s+/).slice(-(t.size + 2))]);
    const order = [['passed'], ...sorted(t).filter(([k]) => k !== 'passed')].map(([k]) => k as string);
    expect(pageRows).toEqual([...ea].map(([c, m]) => [c, ['8', ...order.map((k) => String(m.get(k) ?? 0)), '0']]));

    const verify = await cli(dir, 'verify');
    expect(verify.code).toBe(0);
    expect(verify.out).not.toMatch(/damaged/);

    // A run that is not complete: inspect counts its rows from the parts, label by label.
    await writeManifest(store, { ...(await readManifest(store, a.run_id)), status: 'interrupted' });
    const counted = await cli(dir, 'inspect', a.run_id);
    expect(counted.out).toContain(`\nrows          16; ${summary(total(ea))} (counted from its parts`);
  });
});
