// The `next:` line of an interrupted `resume --retry-errors` (third session of 2026-12-05, from a review):
// it suggested a plain `resume`, which finishes the missing pairs but not the retry: the errors not yet
// run again stay errors, and on bullmq a retried job that finished after the interrupt (paid) is
// dropped, its pair run and paid again by the next retry. It now suggests continuing the retry.
import type { TargetConfig } from 'poisson-core';
import { describe, expect, it } from 'vitest';
import { SPEC, eachTempDir } from '../__fixtures__/helpers.js';
import { resume } from '../executor/resume.js';
import { sweep } from '../executor/sweep.js';
import { runSummary } from './format.js';

const temp = eachTempDir();

describe('runSummary of an interrupted run', () => {
  it('after an interrupted retry: next continues the retry, with its --error-match; after a plain resume, a plain resume', async () => {
    const { dir } = temp;
    let phase = 0;
    const ac = new AbortController();
    const target = (cfg: TargetConfig) => {
      if (phase === 0 && cfg['slack'] === 4 && (cfg.replicate_index === 2 || cfg.replicate_index === 3)) throw new Error('HTTP 429 scripted');
      if (phase === 1) ac.abort();
      return { outcome: 'passed', t: 1 };
    };
    const m0 = await sweep({ spec: SPEC, target, store: dir, maxMde: 0.99, salt: 'ns' });
    phase = 1;
    const m1 = await resume({ store: dir, ref: m0.run_id, target, retryErrors: true, errorMatch: 'HTTP 429', signal: ac.signal });
    expect(m1.status).toBe('interrupted');
    expect(runSummary('resume', m1).split('\n').find((l) => l.startsWith('next: '))).toBe(`next: poisson-prove resume ${m0.run_id} --retry-errors --error-match "HTTP 429"`);
    // The same run interrupted by a plain resume (no retry in that invocation): a plain resume.
    const plain = { ...m1, resumes: [...m1.resumes, { at: '2026-12-05T23:00:00.000Z', missing: 1, command: [] }] };
    expect(runSummary('resume', plain).split('\n').find((l) => l.startsWith('next: '))).toBe(`next: poisson-prove resume ${m0.run_id}`);
  });
});
