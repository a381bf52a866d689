import { describe, expect, it } from 'vitest';
import { seedFor } from '../spec/seed-for.js';
import { emptyCounts, manifestBytes, manifestText, type RunManifest } from './manifest.js';

/** A manifest shaped like a sweep's, with the keys in the order createRun writes them. */
function manifest(seeds: number[], extra: Partial<RunManifest> = {}): RunManifest {
  return {
    run_id: '20261203T000000Z-abcd',
    name: 'fixture 2026-12-03 a',
    status: 'running',
    backend: 'local',
    target: 'targets.mjs:coin',
    target_id: 'fixture',
    t_unit: 'turns',
    replicates: seeds.length,
    axes: { slack: { type: 'continuous', values: [4] } },
    conditions: ['slack 4'],
    salt: 'salt with "seeds": [] in it\n  "seeds": []',
    seeds,
    max_mde: 0.99,
    q: 0.05,
    power: 0.8,
    method: 'exact',
    created: '2026-12-03T00:00:00.000Z',
    finished: null,
    counts: emptyCounts(),
    spec_sha256: '0'.repeat(64),
    registration_sha256: null,
    extensions: [],
    resumes: [],
    parts: [],
    ...extra,
  } as unknown as RunManifest;
}

const plain = (m: RunManifest): string => `${JSON.stringify(m, null, 2)}\n`;
const seedsOf = (salt: string, n: number): number[] => Array.from({ length: n }, (_, r) => seedFor(salt, r));

describe('manifestText: JSON.stringify(manifest, null, 2), the seeds of a frozen list rendered once', () => {
  it('is byte for byte the plain text, for frozen and unfrozen lists of 0, 1 and many seeds', () => {
    for (const n of [0, 1, 2, 1000]) {
      const seeds = seedsOf('m', n);
      expect(manifestText(manifest(seeds))).toBe(plain(manifest(seeds)));
      const frozen = Object.freeze(seedsOf('m', n)) as number[];
      expect(manifestText(manifest(frozen))).toBe(plain(manifest(frozen)));
    }
  });

  it('keeps the place of the seeds key and the seeds of extensions (nested, rendered as they are)', () => {
    const seeds = Object.freeze(seedsOf('e', 5)) as number[];
    const m = manifest(seeds, { extensions: [{ at: 'x', replicates_added: 2, from_index: 5, to_index: 6, seeds: [1, 2], command: [] }] } as never);
    const text = manifestText(m);
    expect(text).toBe(plain(m));
    expect(Object.keys(JSON.parse(text) as object)).toEqual(Object.keys(m));
  });

  it('renders each frozen list as its own: one list rewritten with new counts, then another run\'s list', () => {
    const a = Object.freeze(seedsOf('run-a', 50)) as number[];
    const b = Object.freeze(seedsOf('run-b', 50)) as number[];
    const first = manifest(a);
    expect(manifestText(first)).toBe(plain(first));
    const later = { ...first, counts: { rows: 7, rows_without_outcome: 1, outcomes: { passed: 6 } }, parts: [{ file: 'part-00000.parquet' }] } as unknown as RunManifest;
    expect(manifestText(later)).toBe(plain(later));
    const other = manifest(b);
    expect(manifestText(other)).toBe(plain(other));
    expect(manifestText(other)).not.toContain(String(a[3]));
  });
});

describe('manifestBytes: the UTF-8 bytes of manifestText, the seeds of a frozen list encoded once', () => {
  it('is byte for byte Buffer.from(manifestText), for frozen and unfrozen lists, non-ASCII text and a list rewritten with new counts', () => {
    for (const n of [0, 1, 1000]) {
      const seeds = seedsOf('b', n);
      const frozen = Object.freeze(seedsOf('b', n)) as number[];
      for (const m of [manifest(seeds), manifest(frozen), { ...manifest(frozen), name: 'é ü — 汉字' } as RunManifest]) {
        expect(Buffer.compare(manifestBytes(m), Buffer.from(plain(m), 'utf8'))).toBe(0);
      }
      const later = { ...manifest(frozen), counts: { rows: 3, rows_without_outcome: 0, outcomes: { passed: 3 } } } as RunManifest;
      expect(manifestBytes(later).toString('utf8')).toBe(plain(later));
    }
  });
});
