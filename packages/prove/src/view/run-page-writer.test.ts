import { seedFor } from 'poisson-core';
import { describe, expect, it } from 'vitest';
import { eachTempDir, SPEC } from '../__fixtures__/helpers.js';
import { parseSweepSpec } from '../spec/sweep-spec.js';
import { createRun } from '../store/create-run.js';
import type { EpisodeRow } from '../store/episode-row.js';
import { readManifest, writeManifest } from '../store/manifest.js';
import { escapeHtml } from './escape.js';
import { viewRun } from './view-diff.js';

// A review (first session of 2026-12-06): a sweep killed with SIGKILL leaves its run `running`; inspect
// says "running (no live writer: its process was killed or crashed; ... resume ... finishes it)", and
// the run page's headline said "running: 400 episodes", with no word that nothing runs it any more nor
// of the command that finishes it.

const SPEC40 = SPEC.replace('replicates = 8', 'replicates = 40');
const spec = parseSweepSpec(SPEC40);

function row(runId: string, r: number): EpisodeRow {
  return { run_id: runId, condition: 'slack 4 · strictness strict', slack: 4, strictness: 'strict', replicate_index: r, seed: seedFor('s', r), outcome: 'passed', t: 1, score: null, error: null, meta: '{}', duration_ms: 1 };
}

describe('the run page of a run whose status is running', () => {
  const tmp = eachTempDir('prove-run-page-writer-');

  it('says what inspect says: whether its writer is alive, and for a dead one the resume command that finishes it', async () => {
    const dir = tmp.dir;
    const w = await createRun(dir, { spec, specText: SPEC40, target: 't', salt: 's', maxMde: 0.99, partRows: 8 });
    const id = w.manifest.run_id;
    await w.append(Array.from({ length: 8 }, (_, r) => row(id, r)));
    const alive = await viewRun(dir, id);
    expect(alive.html).toContain('<p class="verdict" id="verdict">running (its writer is alive): 8 episodes');
    await w.close('complete');
    const complete = await viewRun(dir, id);
    expect(complete.html).toContain('<p class="verdict" id="verdict">complete: 8 episodes');
    expect(complete.html).not.toContain('writer');
    // As a SIGKILL leaves it: status running, no lock.
    await writeManifest(dir, { ...(await readManifest(dir, id)), status: 'running' });
    const { html } = await viewRun(dir, id);
    expect(html).toContain('<p class="verdict" id="verdict">running (no live writer: its process was killed or crashed): 8 episodes');
    expect(html).toContain(escapeHtml(`no live writer: its process was killed or crashed; poisson-prove --store ${dir} resume ${id} finishes it`));
    // The status row of the manifest says it too.
    expect(html).toContain(`<tr><th>status</th><td>${escapeHtml(`running (no live writer: its process was killed or crashed; poisson-prove --store ${dir} resume ${id} finishes it)`)}</td></tr>`);
  });
});
