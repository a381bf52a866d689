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
    }
    this.#active += 1;
    try {
      return await fn();
    } finally {
      this.#active -= 1;
      const next = this.#queue.shift();
      if (next) next();
    }
  }
}
