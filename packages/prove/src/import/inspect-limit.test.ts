import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachTempDir } from '../__fixtures__/helpers.js';
import { episodes } from '../store/read-episodes.js';
import { importRun } from './import-run.js';

// inspect_ai halts a sample at its token, time, message or context limit and scores it as it stood
// (EvalSample.limit: { type, limit }). A review (2026-12-07): the import read such a sample's score as
// any other's, with no word, and dropped the limit: nothing in the run said which answers were cut short.
// Made from the real log ../../../../../shared/fixtures/harness-logs/inspect/2025-05-12T20-28-26-04-00_security-guide.json.
const LOG = new URL('../../../../../shared/fixtures/harness-logs/inspect/2025-05-12T20-28-26-04-00_security-guide.json', import.meta.url).pathname;

const t = eachTempDir('inspect-limit-');

describe('inspect_ai samples halted by a limit', () => {
  it('keep their limit in the row meta, and the import says how many, by type', async () => {
    const log = JSON.parse(await readFile(LOG, 'utf8')) as { samples: Record<string, unknown>[] };
    (log.samples[0] as Record<string, unknown>)['limit'] = { type: 'token', limit: 100 };
    (log.samples[2] as Record<string, unknown>)['limit'] = { type: 'time', limit: 60 };
    const file = join(t.dir, 'limited.json');
    await writeFile(file, JSON.stringify(log));
    const store = join(t.dir, 'store');
    const r = await importRun(store, { format: 'inspect', files: [file] });
    expect(r.runs[0]).toMatchObject({ status: 'complete', rows: 3, outcomes: { passed: 3 } });
    expect(r.notes).toContain(
      `${file}: 2 of its samples were halted by a limit (time 1, token 1; inspect_ai's sample limits) and scored as they stood, as inspect scores them: their outcomes may be the limit's rather than the model's answer (each row's meta.limit says which); raise the limit and run them again to compare answers that were not cut short.`,
    );
    const rows = await episodes(store, r.runs[0]?.run_id as string);
    const limits = rows.map((row) => (JSON.parse(row.meta as string) as { limit?: unknown }).limit ?? null);
    expect(limits).toEqual([{ type: 'token', limit: 100 }, null, { type: 'time', limit: 60 }]);
    // A log without limits says nothing of them.
    const plain = await importRun(store, { format: 'inspect', files: [LOG] });
    expect(plain.notes.filter((n) => n.includes('halted by a limit'))).toEqual([]);
  });
});
