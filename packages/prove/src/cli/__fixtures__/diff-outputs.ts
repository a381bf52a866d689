// What `poisson-prove diff` prints, text and --json, for several option sets: on the mixed runs of
// diff/__fixtures__/mixed-runs.ts (incomplete on purpose: read with --partial) and on three complete runs
// (for --show pairs and several candidates, which read complete runs). diff-output.json pins them.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRun, seedSpecText } from '../../diff/__fixtures__/build-run.js';
import { mulberry32 } from '../../diff/__fixtures__/independent-runs.js';
import { writeMixedRuns } from '../../diff/__fixtures__/mixed-runs.js';
import { listRuns } from '../../store/list-runs.js';
import { runCli } from '../run-cli.js';
import { capture } from './capture.js';

/** The diffs run: a name, the store, and the arguments after `diff`. */
export const DIFF_OUTPUT_CASES: readonly { readonly name: string; readonly store: 'mixed' | 'complete'; readonly args: readonly string[] }[] = [
  { name: 'default', store: 'mixed', args: ['#3', '#2', '--partial'] },
  { name: 'full', store: 'mixed', args: ['#3', '#2', '--partial', '--full'] },
  { name: 'events', store: 'mixed', args: ['#3', '#2', '--partial', '--event', 'failed', '--event', 'truncated', '--event', 'passed', '--method', 'midp', '--full'] },
  { name: 'one event named', store: 'mixed', args: ['#3', '#2', '--partial', '--event', 'truncated'] },
  { name: 'cluster', store: 'mixed', args: ['#3', '#2', '--partial', '--cluster', 'strictness', '--full'] },
  { name: 'sequential', store: 'mixed', args: ['#3', '#2', '--partial', '--sequential'] },
  { name: 'unpaired', store: 'mixed', args: ['#3', '#1', '--partial', '--full'] },
  { name: 'complete', store: 'complete', args: ['#1', '#2', '--full'] },
  { name: 'pairs', store: 'complete', args: ['#1', '#2', '--show', 'pairs', '--limit', '2'] },
  { name: 'candidates', store: 'complete', args: ['#1', '#2', '#3'] },
];

/** Writes three complete runs of 3 conditions x 20 replicates (seeded outcomes; run 3 fails more). */
async function writeCompleteRuns(store: string): Promise<void> {
  const spec = seedSpecText(20, [1, 2, 4]);
  for (const [i, pFail] of [0.3, 0.35, 0.6].entries()) {
    const next = mulberry32(100 + i);
    await buildRun(store, { specText: spec, maxMde: 0.5, now: new Date(Date.UTC(2026, 10, 6, 23, 13, 18 + i)), outcomes: () => (next() < pFail ? 'failed' : next() < 0.1 ? 'truncated' : 'passed') });
  }
}

/** Two temporary stores with their runs written: `mixed` and `complete`, and each one's run ids in order. */
export async function diffOutputStores(): Promise<Record<'mixed' | 'complete', { dir: string; ids: string[] }>> {
  const mixed = await mkdtemp(join(tmpdir(), 'diff-output-mixed-'));
  const complete = await mkdtemp(join(tmpdir(), 'diff-output-complete-'));
  await writeMixedRuns(mixed);
  await writeCompleteRuns(complete);
  const ids = async (s: string): Promise<string[]> => (await listRuns(s)).map((m) => m.run_id);
  return { mixed: { dir: mixed, ids: await ids(mixed) }, complete: { dir: complete, ids: await ids(complete) } };
}

/**
 * Every case as text and as --json: `{ code, out, err }` with the run ids (random) replaced by `RUN1`,
 * `RUN2`, ... in the store's order.
 */
export async function diffOutputs(stores: Record<'mixed' | 'complete', { dir: string; ids: readonly string[] }>): Promise<Record<string, { code: number; out: string; err: string }>> {
  const result: Record<string, { code: number; out: string; err: string }> = {};
  for (const c of DIFF_OUTPUT_CASES) {
    const { dir, ids } = stores[c.store];
    const anonymous = (s: string): string => ids.reduce((t, id, i) => t.split(id).join(`RUN${i + 1}`), s);
    for (const json of [false, true]) {
      const io = capture(dir);
      // The store is $POISSON_STORE, so the next: lines name no --store (as before they could).
      (io.io.env as Record<string, string>)['POISSON_STORE'] = dir;
      const code = await runCli(['--store', dir, 'diff', ...c.args, ...(json ? ['--json'] : [])], io.io);
      result[`${c.name}${json ? ' --json' : ''}`] = { code, out: anonymous(io.out()), err: anonymous(io.err()) };
    }
  }
  return result;
}
