import { describe, expect, it } from 'vitest';
import type { SweepProgress } from '../executor/execute.js';
import { memoryIo } from '../__fixtures__/helpers.js';
import { duration, progressReporter, statusLine } from './progress.js';

const at = (done: number, over: Partial<SweepProgress> = {}): SweepProgress => ({
  run_id: '20261203T080000Z-abcd',
  done,
  total: 400,
  rows_without_outcome: 2,
  elapsed_ms: done * 100,
  rate: 10,
  eta_ms: (400 - done) * 100,
  billed_tokens: null,
  ...over,
});

describe('progress without a terminal: status lines', () => {
  it('writes a line at most every 10 s of its clock (an injected one), and one at the end', () => {
    let clock = 1_000;
    const io = memoryIo({ cwd: '/', now: () => clock });
    const p = progressReporter(io, 'sweep', true);
    const steps: [number, number][] = [[2_000, 10], [9_000, 50], [11_000, 60], [15_000, 100], [20_999, 150], [21_000, 160], [40_000, 400]];
    for (const [t, done] of steps) {
      clock = t;
      p.update(at(done));
    }
    p.stop();
    expect(io.err()).toBe(
      [
        'sweep: 60/400 episodes, 10.0 episodes/s, ETA 34 s, 2 without an outcome', // 10 s after the start (clock 1 000)
        'sweep: 160/400 episodes, 10.0 episodes/s, ETA 24 s, 2 without an outcome', // 10 s after that line
        // At 400/400 no periodic line: the last line says it, with the time taken.
        'sweep: 400/400 episodes in 40 s, 10.0 episodes/s, 2 without an outcome',
        '',
      ].join('\n'),
    );
  });

  it('shows the tokens billed when the target reports them, and writes nothing when disabled or never updated', () => {
    expect(statusLine('resume', at(120, { billed_tokens: 5400 }), false)).toBe('resume: 120/400 episodes, 10.0 episodes/s, ETA 28 s, 2 without an outcome, 5400 tokens billed\n');
    expect(statusLine('extend', at(400, { billed_tokens: 0, elapsed_ms: 252_000 }), true)).toBe('extend: 400/400 episodes in 4 min 12 s, 10.0 episodes/s, 2 without an outcome, 0 tokens billed\n');
    const off = memoryIo({ cwd: '/', now: () => 0 });
    const q = progressReporter(off, 'sweep', false);
    q.update(at(400));
    q.stop();
    expect(off.err()).toBe('');
    const idle = memoryIo({ cwd: '/', now: () => 0 });
    progressReporter(idle, 'sweep', true).stop();
    expect(idle.err()).toBe('');
  });

  it('formats durations in s, min and h', () => {
    expect([duration(0), duration(59_400), duration(60_000), duration(3_599_000), duration(3_600_000), duration(7_380_000)]).toEqual([
      '0 s',
      '59 s',
      '1 min 00 s',
      '59 min 59 s',
      '1 h 00 min',
      '2 h 03 min',
    ]);
  });
});
