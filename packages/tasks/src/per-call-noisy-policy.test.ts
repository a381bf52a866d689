import { describe, expect, it } from 'vitest';
import type { ArmSpec } from './arm-spec.js';
import { runEpisode } from './episode.js';
import { generate } from './generate.js';
import { perCallNoisyPolicy } from './per-call-noisy-policy.js';
import { maxTurns } from './turns.js';
import { D1, D1H3, D3 } from './__fixtures__/arms.js';

async function outcomes(arm: ArmSpec, e: number, n: number, salt?: string): Promise<{ outcomes: string[]; ts: Set<number>; invalid: number }> {
  const policy = perCallNoisyPolicy({ e, ...(salt !== undefined ? { salt } : {}) });
  const out: string[] = [];
  const ts = new Set<number>();
  let invalid = 0;
  for (let seed = 0; seed < n; seed++) {
    const r = await runEpisode(generate(arm, seed), policy, { maxTurns: maxTurns(arm, 4) });
    out.push(r.outcome);
    ts.add(r.t);
    invalid += r.calls.filter((c) => !c.valid).length;
  }
  return { outcomes: out, ts, invalid };
}

const failed = (os: readonly string[]): number => os.filter((o) => o === 'failed').length;

describe('perCallNoisyPolicy', () => {
  // failures ~ Binomial(n, 1 - (1 - e)^d) when every live call is wrong with probability e on its own:
  // |failures - n P| <= 4 sqrt(n P (1 - P)) holds with probability > 0.9999; the seeds are fixed, so the
  // test is deterministic.
  it.each([
    ['depth:d1', D1, 1],
    ['depth:d3', D3, 3],
    ['depth:d1+h3', D1H3, 1],
  ] as const)('%s fails at 1 - (1 - e)^d with d its live calls (e = 0.15, 3000 seeds), in d + 1 turns', async (_, arm, d) => {
    const n = 3000;
    const e = 0.15;
    const P = 1 - (1 - e) ** d;
    const r = await outcomes(arm, e, n);
    expect(Math.abs(failed(r.outcomes) - n * P)).toBeLessThanOrEqual(4 * Math.sqrt(n * P * (1 - P)));
    expect(r.outcomes.every((o) => o === 'failed' || o === 'passed')).toBe(true);
    expect([...r.ts]).toEqual([d + 1]);
    expect(r.invalid).toBe(0); // a wrong call passes a valid token: the episode fails at its answer
  });

  it('is reproducible per (seed, arm), independent between arms, and changed by the salt', async () => {
    const a = (await outcomes(D1, 0.3, 400)).outcomes;
    expect((await outcomes(D1, 0.3, 400)).outcomes).toEqual(a);
    // Keyed by the arm too: the control does not fail on exactly d1's seeds (unlike noisyPolicy's draws).
    const control = (await outcomes(D1H3, 0.3, 400)).outcomes;
    const disagree = a.filter((o, i) => o !== control[i]).length;
    // Independent draws disagree on 2 e (1 - e) = 0.42 of the seeds: 168 of 400 expected.
    expect(disagree).toBeGreaterThan(120);
    expect(disagree).toBeLessThan(216);
    expect((await outcomes(D1, 0.3, 400, 'other')).outcomes).not.toEqual(a);
  });

  it('never fails at e = 0 and always fails at e = 1', async () => {
    expect(failed((await outcomes(D3, 0, 200)).outcomes)).toBe(0);
    expect(failed((await outcomes(D1H3, 1, 200)).outcomes)).toBe(200);
  });

  it('refuses an e outside [0, 1], and names its targets after itself', () => {
    expect(() => perCallNoisyPolicy({ e: -0.1 })).toThrow('e must be a probability in [0, 1], got -0.1');
    expect(() => perCallNoisyPolicy({ e: '0.1' as never })).toThrow('e must be a probability in [0, 1], got "0.1"');
    expect(perCallNoisyPolicy({ e: 0.1 }).name).toBe('per_call');
    expect(perCallNoisyPolicy({ e: 0.1, name: 'flaky' }).name).toBe('flaky');
  });
});
