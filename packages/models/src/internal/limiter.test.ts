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

  // A review (third session of 2026-12-06): the slot was freed before the woken waiter took it, so a
  // caller arriving in between took it too: two calls at once on a limit of 1 (one over a provider's
  // concurrency). The slot now passes to the first waiter.
  it('a slot freed while a call waits goes to that waiter, not to a caller arriving meanwhile', async () => {
    const limiter = new Limiter(1);
    let running = 0;
    let most = 0;
    const call = (gate: Promise<void>) => async (): Promise<void> => {
      running++;
      most = Math.max(most, running);
      await gate;
      running--;
    };
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = limiter.run(call(gate));
    const waiter = limiter.run(call(Promise.resolve()));
    // A caller whose continuation runs after the first call's slot is freed and before the woken waiter
    // runs (one promise hop after the gate opens: microtask order is fixed by the language).
    const late = gate.then(() => undefined).then(() => limiter.run(call(Promise.resolve())));
    release();
    await Promise.all([first, waiter, late]);
    expect(most).toBe(1);
    expect(limiter.active).toBe(0);
  });
});
