// `diff --discordance P` on the CLI: runs of a target that disagrees with itself, swept without
// --discordance, whose only discordant pairs go one way (fall 2 of 128), read their limits as a
// deterministic change and now say so; --discordance P reads them at psi^ + d without sweeping again.
import { minimumDetectableChange, roundSignificant } from 'poisson-stats';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRun, fromTables, seedSpecText, tempStore } from '../../diff/__fixtures__/build-run.js';
import { captureStore } from '../__fixtures__/capture.js';
import { runCli } from '../run-cli.js';

let store: string;
beforeAll(async () => {
  store = await tempStore();
  const o = fromTables([{ both: 0, rise: 0, fall: 2, neither: 126 }]);
  await buildRun(store, { specText: seedSpecText(128), maxMde: 0.1, outcomes: o.before, now: new Date('2026-12-06T10:00:00Z') });
  await buildRun(store, { specText: seedSpecText(128), maxMde: 0.1, outcomes: o.after, now: new Date('2026-12-06T10:00:01Z') });
}, 60_000);

describe('diff --discordance', () => {
  it('without it, says the one-way limits assume a target that never disagrees with itself, and names the option', async () => {
    const io = captureStore(store);
    expect(await runCli(['--store', store, 'diff', '#1', '#2'], io.io)).toBe(0);
    const line = io.out().split('\n').find((l) => l.startsWith('discordance')) ?? '';
    expect(line).toContain('observed up to 0.016, every table one way');
    expect(line).toContain('read them at psi^ + d with diff --discordance P');
  });

  it('--discordance 0.02 reads the limit at psi^ + d, and --json repeats what was given', async () => {
    const io = captureStore(store);
    expect(await runCli(['--store', store, 'diff', '#1', '#2', '--discordance', '0.02', '--json'], io.io)).toBe(0);
    const out = JSON.parse(io.out()) as { discordance_given: number; limits_discordance: unknown; rows: { limit_rise: number }[] };
    expect(out.discordance_given).toBe(0.02);
    expect(out.limits_discordance).toEqual({ reading: 'psi^ + d', because: 'given' });
    // One condition, one event (failed): alpha = 0.05.
    expect(out.rows[0]?.limit_rise).toBe(roundSignificant(minimumDetectableChange({ n: 128, alpha: 0.05, discordance: 2 / 128, discordanceSlope: 1 }), 3));
  });

  it('refuses a share outside [0, 1] with exit 2 and no stack trace', async () => {
    const io = captureStore(store);
    expect(await runCli(['--store', store, 'diff', '#1', '#2', '--discordance', '1.5'], io.io)).toBe(2);
    expect(io.err()).toMatch(/--discordance/);
    expect(io.err()).not.toMatch(/\n\s+at /);
    expect(io.out()).toBe('');
  });

  it('report --discordance reads its cells so too (view passes it to its heatmaps)', async () => {
    const io = captureStore(store);
    expect(await runCli(['--store', store, 'report', '#1', '#2', '--x', 'slack', '--discordance', '0.02', '--json'], io.io)).toBe(0);
    const out = JSON.parse(io.out()) as { diff: { discordance_given: number; limits_discordance: unknown; rows: { limit_rise: number }[] } };
    expect(out.diff.limits_discordance).toEqual({ reading: 'psi^ + d', because: 'given' });
    expect(out.diff.rows[0]?.limit_rise).toBe(roundSignificant(minimumDetectableChange({ n: 128, alpha: 0.05, discordance: 2 / 128, discordanceSlope: 1 }), 3));
  });
});
