/** A counting semaphore: at most `limit` holders at once, FIFO. */
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
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#active >= this.limit) await new Promise<void>((resolve) => this.#queue.push(resolve));
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
