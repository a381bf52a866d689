// `report` of two imports pairs their samples by identity as `diff` does, and says what it left out
// (review, 2026-12-05): on the code before this test, `report A B --x task` of two inspect_ai imports
// whose logic samples 0, 40 and 80 were reworded printed the cells with no word of the 3 samples left
// unpaired (diff warned), its JSON had `identity: null` and `diff.warnings: []`, and the scorer warning
// the diff computed was in the JSON only, never in the text.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../__fixtures__/helpers.js';
import { runCli } from '../cli/run-cli.js';
import { makeTruth, writeInspect } from '../import/__fixtures__/harness-gen.js';
import { importRun } from '../import/import-run.js';
import { HARNESS } from './__fixtures__/import-view-paths.js';
import { tempStore } from './__fixtures__/build-run.js';
import { diffRuns } from './diff-runs.js';
import { formatDiffText } from './format-text.js';
import { formatGridText, readReportRuns, reportGrid } from './report-grid.js';

let dir: string;
let store: string;
let a: string;
let b: string;
const id = (r: { runs: readonly { run_id: string }[] }): string => r.runs[0]?.run_id as string;
beforeAll(async () => {
  dir = await tempStore();
  store = join(dir, 'store');
  // n 120: logic's samples 0, 40 and 80 are reworded after; arith's last 3 are absent after.
  const truth = makeTruth(120, 5);
  a = id(await importRun(store, { format: 'inspect', files: await writeInspect(join(dir, 'in1'), truth, 0, false), name: 'before' }));
  b = id(await importRun(store, { format: 'inspect', files: await writeInspect(join(dir, 'in2'), truth, 1, false), name: 'after' }));
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const UNPAIRED = '3 samples are in both runs with a different input (input_hash), so not paired';

describe('report of two imports: paired by identity, and says what it left out', () => {
  it('carries the identity pairing and the warnings diff gives, and prints them as diff does', async () => {
    const d = await diffRuns(store, a, b, { events: ['failed'] });
    expect(d.warnings.some((w) => w.startsWith(UNPAIRED))).toBe(true);
    const [ra, rb] = await readReportRuns(store, [a, b]);
    const g = reportGrid(ra!, rb!, { x: 'task', event: 'failed' });
    expect(g.diff.identity).toEqual(d.identity);
    expect(g.diff.warnings).toEqual(d.warnings);
    const text = formatGridText(g);
    // The same lines, word for word, as diff's text.
    const warningLines = formatDiffText(d).split('\n').filter((l) => l.startsWith('warning '));
    expect(warningLines.length).toBe(2);
    for (const l of warningLines) expect(text.split('\n')).toContain(l);
  });

  it('rows given in memory (readRunForDiff) say the same', async () => {
    const { readRunForDiff } = await import('./read-run.js');
    const g = reportGrid(await readRunForDiff(store, a), await readRunForDiff(store, b), { x: 'task', event: 'failed' });
    expect(g.diff.identity?.input_mismatches.length).toBe(3);
    expect(formatGridText(g)).toContain(`warning       ${UNPAIRED}`);
  });

  it('the CLI: the text warns, --json has the identity and the warnings', async () => {
    const io = memoryIo({ cwd: dir });
    expect(await runCli(['--store', store, 'report', a, b, '--x', 'task'], io)).toBe(0);
    expect(io.out()).toContain(`\nwarning       ${UNPAIRED}: `);
    expect(io.out()).toContain('\nwarning       3 samples are in one run only (3 only before, 0 only after), so not paired');
    const j = memoryIo({ cwd: dir });
    expect(await runCli(['--store', store, 'report', a, b, '--x', 'task', '--json'], j)).toBe(0);
    const json = JSON.parse(j.out()) as { diff: { identity?: { input_mismatches: unknown[]; only_before: number } | null; warnings: string[] } };
    expect(json.diff.identity?.input_mismatches.length).toBe(3);
    expect(json.diff.identity?.only_before).toBe(3);
    expect(json.diff.warnings.some((w) => w.startsWith(UNPAIRED))).toBe(true);
  });

  it('the scorer warning is printed in the text, not in the JSON only', async () => {
    const log = JSON.parse(await readFile(join(HARNESS, 'inspect', '2025-05-12T20-28-26-04-00_security-guide.json'), 'utf8')) as { eval: { scorers?: unknown }; samples: { scores: Record<string, unknown> }[] };
    delete log.eval.scorers;
    for (const s of log.samples) s.scores = { ...s.scores, includes: { value: 'I' } };
    await writeFile(join(dir, 'two.json'), JSON.stringify(log));
    const picked = id(await importRun(store, { format: 'inspect', files: [join(dir, 'two.json')], scorer: 'includes', name: 'includes' }));
    const other = id(await importRun(store, { format: 'inspect', files: [join(dir, 'two.json')], scorer: 'model_graded_fact', name: 'fact' }));
    const io = memoryIo({ cwd: dir });
    expect(await runCli(['--store', store, 'report', other, picked, '--x', 'task'], io)).toBe(0);
    expect(io.out()).toContain("\nwarning       the runs' outcomes come from different scorers (before: model_graded_fact, after: includes)");
  });
});
