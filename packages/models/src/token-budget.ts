import { BudgetExhaustedError } from './errors.js';

/**
 * A token budget for a run: counts the tokens the API reports (`usage.total_tokens` of every uncached
 * call) and, when the count reaches the limit, aborts its `signal` with a {@link BudgetExhaustedError}.
 * Hand the signal to the executor (`sweep({ signal: budget.signal })`) so that the run stops cleanly and
 * is marked `interrupted`; model targets check it before every call.
 *
 * Rule: stop when used >= limit. Calls already in flight finish and are counted (the overshoot is at
 * most the concurrency times one call's tokens).
 *
 * @example
 * ```ts
 * const budget = new TokenBudget(100_000);
 * budget.charge(1200); budget.used; // 1200
 * ```
 * @see checkPlanBudget
 */
export class TokenBudget {
  readonly limit: number;
  #used = 0;
  readonly #controller = new AbortController();
  /**
   * @param limit - the most tokens the run may use (positive integer).
   * @throws RangeError when `limit` is not a positive integer.
   */
  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit <= 0) throw new RangeError(`limit must be a positive integer; got ${limit}.`);
    this.limit = limit;
  }
  /** Tokens counted so far. */
  get used(): number {
    return this.#used;
  }
  /** Tokens left (never negative). */
  get remaining(): number {
    return Math.max(0, this.limit - this.#used);
  }
  /** Aborted (reason: BudgetExhaustedError) once usage reaches the limit. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }
  /** Whether the budget is spent. */
  get exhausted(): boolean {
    return this.#controller.signal.aborted;
  }
  /**
   * Counts tokens; aborts the signal when the limit is reached.
   * @param tokens - non-negative integer.
   * @throws RangeError on a negative or non-integer count.
   */
  charge(tokens: number): void {
    if (!Number.isInteger(tokens) || tokens < 0) throw new RangeError(`tokens must be a non-negative integer; got ${tokens}.`);
    this.#used += tokens;
    if (this.#used >= this.limit && !this.#controller.signal.aborted) {
      this.#controller.abort(new BudgetExhaustedError(this.#used, this.limit));
    }
  }
  /** Throws the BudgetExhaustedError when the budget is spent. */
  throwIfExhausted(): void {
    if (this.#controller.signal.aborted) throw this.#controller.signal.reason;
  }
}
