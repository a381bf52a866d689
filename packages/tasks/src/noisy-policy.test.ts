import { describe, expect, it } from 'vitest';
import { runEpisode } from './episode.js';
import { generate } from './generate.js';
import { noisyPolicy } from './noisy-policy.js';
import { maxTurns } from './turns.js';
import { D1H3, D3 } from './__fixtures__/arms.js';

async function failures(p: number, error: 'call' | 'answer' | 'either', n: number): Promise<{ failed: number; ts: Set<number> }> {
  const policy = noisyPolicy({ p, error });
  let failed = 0;
  const ts = new Set<number>();
  for (let seed = 0; seed < n; seed++) {
    const r = await runEpisode(generate(D3, seed), policy, { maxTurns: maxTurns(D3, 4) });
    if (r.outcome === 'failed') failed++;
    else expect(r.outcome).toBe('passed');
    ts.add(r.t);
  }
  return { failed, ts };
}

describe('noisyPolicy', () => {
  // Binomial tolerance: failures ~ Binomial(n, p), so |failures - n p| <= 4 sqrt(n p (1 - p)) holds with
  // probability > 0.9999; the seeds are fixed, so the test is deterministic.
  it.each([
    [0.1, 'answer'],
    [0.3, 'call'],
    [0.5, 'either'],
  ] as const)('at p = %s (%s errors) fails close to n p over 2000 seeds', async (p, error) => {
    const n = 2000;
    const { failed, ts } = await failures(p, error, n);
    expect(Math.abs(failed - n * p)).toBeLessThanOrEqual(4 * Math.sqrt(n * p * (1 - p)));
    expect([...ts]).toEqual([4]); // a wrong call or answer still takes d + 1 turns
  });

  it('never fails at p = 0 and always fails at p = 1', async () => {
    expect((await failures(0, 'either', 200)).failed).toBe(0);
    expect((await failures(1, 'either', 200)).failed).toBe(200);
  });

  it('is reproducible per seed and coupled across arms and p', async () => {
    const outcomes = async (p: number, arm = D3): Promise<string[]> => {
      const policy = noisyPolicy({ p, error: 'call' });
      const out: string[] = [];
      for (let seed = 0; seed < 300; seed++) out.push((await runEpisode(generate(arm, seed), policy, { maxTurns: 8 })).outcome);
      return out;
    };
    const a = await outcomes(0.2);
    expect(await outcomes(0.2)).toEqual(a);
    // Keyed by the seed, not the arm: the control fails on the same seeds.
    expect(await outcomes(0.2, D1H3)).toEqual(a);
    // Monotone coupling: every seed failed at p = 0.2 also fails at p = 0.4.
    const b = await outcomes(0.4);
    a.forEach((o, i) => {
      if (o === 'failed') expect(b[i]).toBe('failed');
    });
  });

  it('refuses a p outside [0, 1] and an unknown error kind', () => {
    expect(() => noisyPolicy({ p: 1.5 })).toThrow('p must be a probability in [0, 1], got 1.5');
    expect(() => noisyPolicy({ p: Number.NaN })).toThrow('p must be a probability in [0, 1], got NaN');
    expect(() => noisyPolicy({ p: 0.1, error: 'tool' as never })).toThrow('error must be "call", "answer" or "either", got "tool"');
  });
});
