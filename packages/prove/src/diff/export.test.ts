import { describe, expect, it } from 'vitest';
import { exportRuns } from './export.js';

// A review (2026-12-07): from plain JS, exportRuns(s, '#1') (a string for the refs) threw
// "TypeError: refs.map is not a function".
describe('exportRuns', () => {
  it('refuses refs that are not an array with a TypeError naming the option and what to pass', async () => {
    await expect(exportRuns('no-store', '#1' as never)).rejects.toThrow(new TypeError('exportRuns: refs must be an array of run refs, got "#1"; pass one ref as ["#1"].'));
    await expect(exportRuns('no-store', undefined as never)).rejects.toThrow(new TypeError('exportRuns: refs must be an array of run refs, got undefined; pass them as e.g. ["#2", "#3"].'));
    await expect(exportRuns('no-store', [])).rejects.toThrow(new RangeError('exportRuns: refs must name at least one run, got none'));
  });
});
