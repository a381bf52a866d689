/**
 * A counting semaphore: at most `limit` holders at once, FIFO. A waiter whose signal aborts leaves the
 * queue at once (it never takes a slot), and a holder's slot is freed as soon as its `fn` settles, so an
 * aborted call frees its slot when the abort reaches it.
 */
export class Limiter {
  readonly limit: number;
  #active = 0;
  readonly #queue: Array<() => void> = [];
  constructor(limit: number) {
    this.limit = limit;
  }
  get active(): number {
    return this.#active;
  }
  /** Waiters not yet holding a slot. */
  get waiting(): number {
    return this.#queue.length;
  }
  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw signal.reason;
    // A freed slot passes to the first waiter (still counted in #active), so a caller arriving between
    // the release and the waiter's wake-up finds no free slot; it took one until a review of the third
    // session of 2026-12-06 (two calls at once on a limit of 1).
    if (this.#active >= this.limit) {
      await new Promise<void>((resolve, reject) => {
        const wake = (): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = (): void => {
          const i = this.#queue.indexOf(wake);
          if (i >= 0) this.#queue.splice(i, 1);
          reject(signal?.reason);
        };
        this.#queue.push(wake);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      // Woken: the slot was handed over, already counted.
    } else this.#active += 1;
    try {
      return await fn();
    } finally {
      const next = this.#queue.shift();
      if (next) next(); // the slot passes to the waiter
      else this.#active -= 1;
    }
  }
}
