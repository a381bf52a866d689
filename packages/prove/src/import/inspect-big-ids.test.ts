import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { eachTempDir } from '../__fixtures__/helpers.js';
import { readEpisodes } from '../store/read-episodes.js';
import { importRun } from './import-run.js';

// Made from the real log ../../../../../shared/fixtures/harness-logs/inspect/2025-05-12T20-28-26-04-00_security-guide.json (3 samples, passed).
const LOG = new URL('../../../../../shared/fixtures/harness-logs/inspect/2025-05-12T20-28-26-04-00_security-guide.json', import.meta.url).pathname;

const t = eachTempDir('inspect-big-ids-');
let dir: string;
beforeEach(() => {
  dir = t.dir;
});

// A review (second session of 2026-12-07): sample ids beyond 2^53 (64-bit ids, a tweet's say) were read
// rounded by JSON.parse: ten of them read as one, and the import was refused naming an id the log does not
// hold; without a collision the stored sample_id was another number. They are read as their digits.
describe('inspect_ai sample ids beyond 2^53', () => {
  it('are read exactly, as their digits: no false repeat, the stored id the log\'s', async () => {
    const log = JSON.parse(await readFile(LOG, 'utf8')) as { samples: Record<string, unknown>[] };
    const ids = ['1460000000000000001', '1460000000000000002', '1460000000000000003'];
    log.samples.forEach((s, i) => (s['id'] = `BIG${ids[i] as string}`));
    const file = join(dir, 'big-ids.json');
    await writeFile(file, JSON.stringify(log, null, 2).replace(/"BIG(\d+)"/g, '$1'));
    expect(await readFile(file, 'utf8')).toContain('"id": 1460000000000000001,');
    const r = await importRun(join(dir, 'store'), { format: 'inspect', files: [file] });
    expect(r.runs[0]).toMatchObject({ status: 'complete', rows: 3, outcomes: { passed: 3 } });
    const metas = (await readEpisodes(join(dir, 'store'), r.runs[0]?.run_id as string)).toArray().map((x) => JSON.parse((x.toJSON() as { meta: string }).meta) as { sample_id: unknown; identity: string });
    expect(metas.map((m) => m.sample_id).sort()).toEqual(ids);
    expect(metas.map((m) => m.identity).sort()).toEqual(ids.map((i) => `id ${i} epoch 1`));
  });

  // The session's second review: the header's dataset ids were still rounded, so a log missing a sample
  // was said to have no entry for "1460000000000000000" four times over.
  it("the header's dataset ids too: a log missing a sample names the one it lacks", async () => {
    const log = JSON.parse(await readFile(LOG, 'utf8')) as { samples: Record<string, unknown>[]; results?: Record<string, unknown>; eval: { dataset: Record<string, unknown> } };
    log.samples.forEach((s, i) => (s['id'] = `BIG${1460000000000000001n + BigInt(i)}`));
    log.eval.dataset['sample_ids'] = [1, 2, 3, 4].map((i) => `BIG${1460000000000000000n + BigInt(i)}`);
    log.results = { ...(log.results ?? {}), total_samples: 4 };
    const file = join(dir, 'big-missing.json');
    await writeFile(file, JSON.stringify(log, null, 2).replace(/"BIG(\d+)"/g, '$1'));
    const r = await importRun(join(dir, 'store'), { format: 'inspect', files: [file] });
    expect(r.runs[0]?.status).toBe('interrupted');
    expect(r.notes.join('\n')).toContain('(no entry at all for sample id 1460000000000000004)');
  });
});

// The third session of 2026-12-07's reviews: metadata integers beyond 2^53 are rounded by JSON.parse too, so
// `--axis metadata.KEY` of 64-bit values would read two of them as one condition (its samples merged, or
// refused as a repeat naming a value the log does not hold). Such a value cannot be read exactly: the
// import is refused, naming the key, the value and the fix, and nothing is written.
describe('--axis metadata.KEY of integers beyond 2^53', () => {
  it('is refused, naming the key and the rounded value, and writes nothing', async () => {
    const log = JSON.parse(await readFile(LOG, 'utf8')) as { samples: Record<string, unknown>[] };
    log.samples.forEach((s, i) => (s['metadata'] = { shard: `BIG${1460000000000000001n + BigInt(i % 2)}`, small: i }));
    const file = join(dir, 'big-meta.json');
    await writeFile(file, JSON.stringify(log, null, 2).replace(/"BIG(\d+)"/g, '$1'));
    expect(await readFile(file, 'utf8')).toContain('"shard": 1460000000000000001,');
    const store = join(dir, 'store');
    const err = await importRun(store, { format: 'inspect', files: [file], axes: ['metadata.shard'] }).then(
      () => null,
      (e: unknown) => e as Error & { code?: string },
    );
    expect(err?.code).toBe('E_IMPORT');
    expect(err?.message).toMatch(/--axis metadata\.shard: the value 1460000000000000000 is an integer beyond 2\^53, which a JSON reader may have rounded \(two values that differ beyond 2\^53 read as one condition\); write metadata\.shard as a string in the log, or import without --axis metadata\.shard\./);
    const { readdir } = await import('node:fs/promises');
    expect(await readdir(store).catch(() => [])).toEqual([]);
    // Inside an object or an array (the axis value is its JSON): refused too (the closing review found
    // { "n": ...001 } and { "n": ...002 } imported as one condition).
    for (const [what, wrap] of [
      ['an object', (x: string) => `{"n": ${x}}`],
      ['an array', (x: string) => `[1, ${x}]`],
    ] as const) {
      const nested = JSON.parse(await readFile(LOG, 'utf8')) as { samples: Record<string, unknown>[] };
      nested.samples.forEach((s, i) => (s['metadata'] = { shard: `WRAP${i % 2}` }));
      const f = join(dir, `big-meta-${what.replace(' ', '-')}.json`);
      await writeFile(f, JSON.stringify(nested, null, 2).replace(/"WRAP(\d)"/g, (_, i: string) => wrap(String(1460000000000000001n + BigInt(i)))));
      const e = await importRun(store, { format: 'inspect', files: [f], axes: ['metadata.shard'] }).then(
        () => null,
        (x: unknown) => x as Error,
      );
      expect(e?.message, what).toMatch(new RegExp(`--axis metadata\\.shard: the value 1460000000000000000 \\(inside ${what}\\) is an integer beyond 2\\^53`));
    }
    // An axis of small integers still imports.
    const ok = await importRun(store, { format: 'inspect', files: [file], axes: ['metadata.small'] });
    expect(ok.runs[0]).toMatchObject({ status: 'complete', rows: 3 });
  });
});
