import { describe, expect, it } from 'vitest';
import { diffEpisodes } from '../diff/diff-episodes.js';
import type { DiffRun } from '../diff/types.js';
import { renderForestSvg } from './forest.js';

// A review (2026-12-07): with --max-mde 0.12345 the forest's lines showed their change at the threshold's
// five decimals ("+0.08333") while each line's button was named with three ("change +0.083"): a screen
// reader heard another figure than the page shows.

/** A run over slack 4 and 8, 12 replicates, at max_mde 0.12345; `failed(c, r)`: which episodes fail. */
function run(id: string, failed: (c: string, r: number) => boolean): DiffRun {
  const rows = ['slack 4', 'slack 8'].flatMap((condition) =>
    Array.from({ length: 12 }, (_, r) => ({ condition, replicate_index: r, seed: 1000 + r, outcome: failed(condition, r) ? 'failed' : 'passed', t: 1, slack: Number(condition.split(' ')[1]) })),
  );
  return { manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.12345, replicates: 12, axes: { slack: { type: 'continuous', values: [4, 8] } } }, rows };
}

describe("the forest's line names", () => {
  it("name each line's change as its visible text writes it, at the threshold's decimals", () => {
    const report = diffEpisodes(run('a', (_c, r) => r < 3), run('b', (c, r) => r < (c === 'slack 4' ? 4 : 3)), { events: ['failed'] });
    expect(report.threshold).toBe(0.12345);
    const svg = renderForestSvg(report);
    const names = [...svg.matchAll(/aria-label="([^"]*): change ([^,]*), /g)].map((m) => m[2]);
    const shown = [...svg.matchAll(/<text x="[^"]*" y="[^"]*" fill="#[0-9a-f]{6}">(\S+) [^<]*<\/text>/g)].map((m) => m[1]);
    expect(shown).toEqual(['+0.08333', '0.00000']);
    expect(names).toEqual(shown);
  });
});
