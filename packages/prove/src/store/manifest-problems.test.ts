import { describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../__fixtures__/helpers.js';
import { sweep } from '../executor/sweep.js';
import { looksOf } from '../diff/sequential.js';
import type { RunManifest } from './manifest.js';
import { manifestProblems, specOfText } from './manifest-problems.js';

const SPEC = `target_id = "t"
t_unit = "turns"
replicates = 8

[axes.style]
type = "categorical"
values = ["café", "plain"]
`;

// A review of the seventh session of 2026-12-05: spec.toml's axis values are compared with run.json's
// since then, and today's parser reads them in NFC (since 97d4d2f); a run an older build wrote kept them
// as typed ("cafe\u0301"), and every read refused it with two lists that print alike.
describe("spec.toml's axis values against run.json's", () => {
  it('compares them in NFC: a run written before values were normalized reads', async () => {
    const dir = await tempDir('prove-nfc-');
    try {
      const m = await sweep({ spec: SPEC, target: () => ({ outcome: 'passed', t: 1 }), store: dir, maxMde: 0.99, salt: 's' });
      // As an older build wrote it: run.json and spec.toml in the form typed (here NFD).
      const old = JSON.parse(JSON.stringify(m).normalize('NFD')) as RunManifest;
      expect(old.axes['style']?.values[0]).toBe('cafe\u0301');
      expect(manifestProblems(old, { spec: specOfText(Buffer.from(SPEC.normalize('NFD'))) })).toEqual([]);
      // and a value that differs is still named
      const other = specOfText(Buffer.from(SPEC.replace('"plain"', '"fancy"')));
      expect(manifestProblems(m, { spec: other }).join('\n')).toContain('its spec.toml gives the axes style (categorical) "café", "fancy", and its run.json records style (categorical) "café", "plain"');
    } finally {
      await removeDir(dir);
    }
  });
});

// The same review: a retry interrupted and continued by the next resume (continues_from_part) is one
// retry, and the looks clause said "run again 2 times".
describe('looksOf', () => {
  it('counts a retry and its continuations once', () => {
    const retry = { at: '2026-12-05T00:00:00.000Z', rows: 2, error_match: null, from_part: 1, command: [] };
    expect(looksOf({ run_id: 'x', name: 'x', salt: 's', max_mde: 0.5, replicates: 4, retries: [retry, { ...retry, continues_from_part: 1 }] }).retries).toBe(1);
    expect(looksOf({ run_id: 'x', name: 'x', salt: 's', max_mde: 0.5, replicates: 4, retries: [retry, { ...retry, continues_from_part: 1 }, { ...retry, from_part: 3 }] }).retries).toBe(2);
  });
});
