// The diff's `next:` line must work when pasted where the diff ran: a diff of a store other than the one a
// bare command would use ($POISSON_STORE, else ./store) names that store, as sweep's lines do.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRun, seedSpecText, tempStore } from '../../diff/__fixtures__/build-run.js';
import { capture } from '../__fixtures__/capture.js';
import { runCli } from '../run-cli.js';

let store: string;
let elsewhere: string;

beforeAll(async () => {
  store = await tempStore();
  elsewhere = await mkdtemp(join(tmpdir(), 'diff-next-cwd-'));
  for (const [i, fail] of [2, 3].entries()) {
    await buildRun(store, { specText: seedSpecText(8, [4, 8]), maxMde: 0.9, now: new Date(Date.UTC(2026, 10, 6, 23, 13, 18 + i)), outcomes: (_c, r) => (r % fail === 0 ? 'failed' : 'passed') });
  }
});

async function diff(cwd: string, ...extra: string[]): Promise<{ code: number; out: string }> {
  const io = capture(cwd);
  const code = await runCli(['--store', store, 'diff', '#2', '#1', ...extra], io.io);
  return { code, out: io.out() };
}

describe("diff's next: line names the store it read", () => {
  it('names --store when the store is not the one a bare command would use', async () => {
    const { code, out } = await diff(elsewhere);
    expect(code).toBe(0);
    const next = out.split('\n').find((l) => l.startsWith('next: '));
    expect(next).toMatch(new RegExp(`^next: poisson-prove --store ${store.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} report `));
  });

  it('--json carries the same line', async () => {
    const { out } = await diff(elsewhere, '--json');
    expect((JSON.parse(out) as { next: string }).next.startsWith(`poisson-prove --store ${store} report `)).toBe(true);
  });

  it('names no --store when $POISSON_STORE is that store (a pasted bare command reads it)', async () => {
    const io = capture(elsewhere);
    (io.io.env as Record<string, string>)['POISSON_STORE'] = store;
    expect(await runCli(['--store', store, 'diff', '#2', '#1', '--json'], io.io)).toBe(0);
    expect((JSON.parse(io.out()) as { next: string }).next).toMatch(/^poisson-prove report /);
  });
});
