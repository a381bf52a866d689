import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachTempDir } from '../__fixtures__/helpers.js';
import { importRun } from '../import/import-run.js';
import { viewDiff } from './view-diff.js';

// The page's note on the discordant pairs said "No private details" while an imported inspect run's
// meta, shown in full, held the model's answer (a review of the fifth session of 2026-12-05). The note
// now says what the page shows.

const t = eachTempDir('view-import-note-');
const ANSWER = 'the model answered XYZZY-42';

async function log(name: string, pass: (id: number) => boolean): Promise<string> {
  const samples = [1, 2, 3, 4].map((id) => ({ id, epoch: 1, input: `question ${id}`, target: 'yes', scores: { match: { value: pass(id) ? 'C' : 'I', answer: ANSWER } }, metadata: {}, error: null, total_time: 0.1 }));
  const file = join(t.dir, name);
  await writeFile(file, JSON.stringify({ version: 2, status: 'success', eval: { task: 'popularity', model: 'mockllm/model', scorers: [{ name: 'match' }] }, samples }));
  return file;
}

describe('the view page of two imports', () => {
  it('shows the answers the imported meta holds, and its note says so instead of "No private details"', async () => {
    const store = join(t.dir, 'store');
    const a = await importRun(store, { format: 'inspect', files: [await log('a.json', () => true)], name: 'a' });
    const b = await importRun(store, { format: 'inspect', files: [await log('b.json', (id) => id > 2)], name: 'b' });
    const v = await viewDiff(store, a.runs[0]?.run_id as string, b.runs[0]?.run_id as string);
    expect(v.html).toContain(ANSWER);
    expect(v.html).not.toContain('No private details');
    expect(v.html).toContain("an imported run's meta holds what the harness's file held, which can include the model's answer");
  });
});
