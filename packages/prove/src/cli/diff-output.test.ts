import { describe, expect, it } from 'vitest';
import { compareEpisodes } from '../diff/compare-runs.js';
import { diffEpisodes } from '../diff/diff-episodes.js';
import { reportCommand } from '../diff/next-command.js';
import type { DiffRun } from '../diff/types.js';
import { diffReportJson, multiDiffReportJson, nextLine } from './diff-output.js';

function run(name: string, salt = '0123456789abcdef'): DiffRun {
  const rows = ['failed', 'passed', 'failed', 'passed'].map((outcome, r) => ({ condition: `slack ${r % 2 === 0 ? 4 : 8}`, slack: r % 2 === 0 ? 4 : 8, replicate_index: Math.floor(r / 2), seed: 7 + Math.floor(r / 2), outcome }));
  return { manifest: { run_id: `id-${name}`, name, salt, max_mde: 0.5, axes: { slack: { type: 'continuous', values: [4, 8] } } }, rows };
}

describe("the diff's next: line at the CLI's edge", () => {
  it('is the report command, each word quoted as the shell reads it back', () => {
    expect(nextLine({ next: reportCommand({ before: 'run a', after: 'run b', axes: ['slack'], valuesOf: () => 2, events: ['failed'], inferred: false }) })).toBe(
      'poisson-prove report "run a" "run b" --x slack --event failed',
    );
  });

  it('quotes a word a shell would cut short: a leading # starts a comment (the library quoted it with a copy that left it bare)', () => {
    expect(nextLine({ next: ['report', '#5', 'b$x', '--event', 'error/timeout'] })).toBe('poisson-prove report "#5" "b\\$x" --event error/timeout');
  });

  it('--json is the library object with next as that line, in the same place', () => {
    const r = diffEpisodes(run('run a'), run('run b'), { events: ['failed'] });
    const j = diffReportJson(r);
    expect(r.next).toEqual(['report', 'run a', 'run b', '--x', 'slack', '--event', 'failed']);
    expect(j.next).toBe('poisson-prove report "run a" "run b" --x slack --event failed');
    expect(Object.keys(j)).toEqual(Object.keys(r));
    expect({ ...j, next: r.next }).toEqual(r);
  });

  it('maps every candidate of a several-candidate report', () => {
    const m = compareEpisodes(run('base'), [run('c1'), run('c2')], { events: ['failed'] });
    const j = multiDiffReportJson(m);
    expect(j.candidates.map((c) => c.next)).toEqual(['poisson-prove report base c1 --x slack --event failed', 'poisson-prove report base c2 --x slack --event failed']);
    expect(Object.keys(j)).toEqual(Object.keys(m));
  });
});
