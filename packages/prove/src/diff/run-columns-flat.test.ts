// readRunColumns (export, report, inspect, the view page) reads the store's own parts decoded flat and
// any other part through hyparquet; both give the same columns. A run whose manifest has no `parts`
// (written before checksums) is read through hyparquet, so the same run read both ways is compared.
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conditionsOf } from '../spec/conditions.js';
import { seedFor } from '../spec/seed-for.js';
import { parseSweepSpec } from '../spec/sweep-spec.js';
import { createRun } from '../store/create-run.js';
import type { EpisodeRow } from '../store/episode-row.js';
import { manifestPath } from '../store/layout.js';
import type { RunManifest } from '../store/manifest.js';
import { openRunPart, runParts } from '../store/verify-parts.js';
import { tempStore } from './__fixtures__/build-run.js';
import { readRunColumns, type RunColumns } from './run-columns.js';
import { outcomeCodes } from './run-index.js';

const SPEC = ['target_id = "t"', 't_unit = "turns"', 'replicates = 40', '[axes.slack]', 'type = "continuous"', 'values = [1, 2.5, 3]', '[axes.strictness]', 'type = "categorical"', 'values = ["strict", "lax"]', ''].join('\n');

let dir: string;
let store: string;
let hyparquetStore: string;
let manifest: RunManifest;
beforeAll(async () => {
  dir = await tempStore();
  store = join(dir, 'store');
  const spec = parseSweepSpec(SPEC);
  const w = await createRun(store, { spec, specText: SPEC, target: 'test:fixture', salt: '0123456789abcdef', maxMde: 0.99, partRows: 55 });
  const rows: EpisodeRow[] = [];
  // Conditions interleaved across parts, outcomes null / three labels, scores with nulls, t with NaNs.
  for (let r = 0; r < spec.replicates; r++) {
    conditionsOf(spec).forEach((c, ci) => {
      const k = (ci * 7 + r * 13) % 17;
      const outcome = k === 0 ? null : k < 6 ? 'failed' : k < 8 ? 'truncated' : 'passed';
      rows.push({ run_id: w.manifest.run_id, condition: c.label, ...c.values, replicate_index: r, seed: seedFor('0123456789abcdef', r), outcome, t: k % 5 === 0 ? Number.NaN : k, score: k % 3 === 0 ? null : k / 17, error: outcome === null ? 'target crashed' : null, meta: '{}', duration_ms: 1 });
    });
  }
  await w.append(rows);
  manifest = await w.close('complete');
  hyparquetStore = join(dir, 'no-checksums');
  await cp(store, hyparquetStore, { recursive: true });
  const file = manifestPath(hyparquetStore, manifest.run_id);
  const m = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  delete m['parts'];
  await writeFile(file, `${JSON.stringify(m, null, 2)}\n`);
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function plain(run: RunColumns): unknown {
  return {
    length: run.length,
    conditions: run.conditions,
    condition: [...run.condition],
    replicate: [...run.replicate],
    outcome: [...run.outcome].map((o) => (o >= 2 ? run.codes.labels[o - 2] : o)),
    t: [...run.t],
    score: [...run.score],
    seed: run.seed === null ? null : [...run.seed],
    axes: [...run.axes].map(([name, a]) => [name, a.values, [...a.codes]]),
    hasScores: run.hasScores,
  };
}

describe('readRunColumns: the flat decoder and hyparquet give the same columns', () => {
  it('reads the store\'s own parts flat, and the same run without checksums through hyparquet', async () => {
    const part = (await runParts(store, manifest))[0] as NonNullable<Awaited<ReturnType<typeof runParts>>[number]>;
    expect((await openRunPart(manifest, part)).flat(['condition', 'outcome'])).not.toBeNull();
    const other = (await runParts(hyparquetStore, { ...manifest, parts: undefined } as RunManifest))[0];
    expect(other?.record).toBeNull();
    for (const options of [{}, { axes: 'all' as const, seed: true }, { axes: ['strictness'] }]) {
      const flat = await readRunColumns(store, manifest.run_id, outcomeCodes(), options);
      const rows = await readRunColumns(hyparquetStore, manifest.run_id, outcomeCodes(), options);
      expect(plain(flat)).toEqual(plain(rows));
      expect(flat.length).toBe(240);
    }
  });
});
