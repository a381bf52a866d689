import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { eachTempDir } from '../__fixtures__/helpers.js';
import { diffRuns } from '../diff/diff-runs.js';
import { importRun } from './import-run.js';

// inspect_ai marks samples to be run again (inspect_ai.log's `invalidate_samples`): each gets an
// `invalidation` ({ author, reason, timestamp }) and the log `invalidated: true`; its eval-retry treats
// such a sample as it treats one with an error (it never reuses it). A review (first session of
// 2026-12-07): the import read their scores as outcomes, with no word. Made from the real log
// ../../../../../shared/fixtures/harness-logs/inspect/2025-05-12T20-28-26-04-00_security-guide.json (3 samples, passed).
const LOG = new URL('../../../../../shared/fixtures/harness-logs/inspect/2025-05-12T20-28-26-04-00_security-guide.json', import.meta.url).pathname;

const t = eachTempDir('inspect-invalidated-');
let dir: string;
beforeEach(() => {
  dir = t.dir;
});

describe('inspect_ai samples marked invalidated', () => {
  it('are stored without an outcome, their reason as the error, and the import says how many and why', async () => {
    const log = JSON.parse(await readFile(LOG, 'utf8')) as { samples: Record<string, unknown>[]; invalidated?: boolean };
    log.invalidated = true;
    for (const s of log.samples.slice(0, 2)) s['invalidation'] = { author: 'ann', reason: 'grader bug', timestamp: '2025-05-13T10:00:00Z' };
    const file = join(dir, 'invalidated.json');
    await writeFile(file, JSON.stringify(log));
    const r = await importRun(join(dir, 'store'), { format: 'inspect', files: [file] });
    expect(r.runs[0]).toMatchObject({ status: 'complete', rows: 3, outcomes: { passed: 1 } });
    expect(r.runs[0]?.without_outcome).toEqual([
      expect.objectContaining({ sample: 'id 1 epoch 1', reason: 'Invalidated: marked to be run again by ann (grader bug); inspect_ai does not reuse it' }),
      expect.objectContaining({ sample: 'id 2 epoch 1', reason: 'Invalidated: marked to be run again by ann (grader bug); inspect_ai does not reuse it' }),
    ]);
    expect(r.notes).toContain(
      `${file}: 2 of its samples are marked invalidated (inspect_ai's invalidate_samples: to be run again), stored without an outcome as inspect's retry reads them; run them again (an eval set retries them) and import the new log to compare them.`,
    );
    // The same log without the marks pairs with it: the invalidated samples are left out of the pairs.
    // It is not "the same inspect log" (the session's review: its id ignored the marks, and the import
    // said the store held the same samples twice).
    const whole = await importRun(join(dir, 'store'), { format: 'inspect', files: [LOG] });
    expect(whole.notes.filter((n) => n.includes('the same inspect log'))).toEqual([]);
    expect(whole.files[0]?.log_id).not.toBe(r.files[0]?.log_id);
    const d = await diffRuns(join(dir, 'store'), whole.runs[0]?.run_id as string, r.runs[0]?.run_id as string, { events: ['passed'] });
    expect(d.rows[0]?.counts?.n).toBe(1);
  });
});
