import { describe, expect, it } from 'vitest';
import { Limiter } from './limiter.js';

describe('Limiter', () => {
  it('a waiter whose signal aborts leaves the queue and never takes a slot; the next waiter gets it', async () => {
    const limiter = new Limiter(1);
    let release!: () => void;
    const held = limiter.run(() => new Promise<void>((r) => (release = r)));
    const ac = new AbortController();
    const aborted = limiter.run(async () => 'ran', ac.signal);
    const next = limiter.run(async () => 'next');
    expect(limiter.waiting).toBe(2);
    ac.abort(new Error('timed out'));
    await expect(aborted).rejects.toThrow('timed out');
    expect(limiter.waiting).toBe(1);
    release();
    await held;
    await expect(next).resolves.toBe('next');
    expect(limiter.active).toBe(0);
  });

  it('an aborted signal is refused before queueing', async () => {
    const limiter = new Limiter(1);
    await expect(limiter.run(async () => 1, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
    expect(limiter.active).toBe(0);
  });
});
