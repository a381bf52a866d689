/**
 * Domain errors of poisson-models. Each has a stable `code` and, for the CLI, an `exitCode`
 * (0 ok, 1 a failure the command reports, 2 bad input). Messages are sentences that name the problem
 * and the fix. No message ever carries an API key, a prompt or an answer.
 */
import { scrubSecrets } from './internal/scrub.js';

/** `<subject> has N problem(s); fix it/each<then>:` followed by one `  - problem` line each. */
function problemList(subject: string, problems: readonly string[], then: string): string {
  const one = problems.length === 1;
  return `${subject} has ${problems.length} problem${one ? '' : 's'}; fix ${one ? 'it' : 'each'}${then}:\n` + problems.map((p) => `  - ${p}`).join('\n');
}

/**
 * Base class of every poisson-models error.
 *
 * @param code - stable machine-readable code.
 * @param message - a sentence naming the problem and the fix.
 * @param exitCode - the CLI exit code (2 bad input, 1 a reported failure).
 * @example
 * ```ts
 * try { resolveProvider('poe', { env: {} }); } catch (e) { if (e instanceof ModelsError) e.code; } // 'missing_api_key'
 * ```
 * @see ../../../docs/models.md
 */
export class ModelsError extends Error {
  readonly code: string;
  readonly exitCode: number;
  constructor(code: string, message: string, exitCode = 2) {
    super(message);
    this.name = 'ModelsError';
    this.code = code;
    this.exitCode = exitCode;
  }
}

/**
 * A provider needs an API key and the env object passed in has none.
 *
 * @example
 * ```ts
 * resolveProvider('poe', { env: {} }); // throws MissingApiKeyError: set POE_API_KEY ...
 * ```
 * @see PROVIDER_PRESETS
 */
export class MissingApiKeyError extends ModelsError {
  readonly provider: string;
  readonly variable: string;
  constructor(provider: string, variable: string) {
    super(
      'missing_api_key',
      `No API key for provider "${provider}": set ${variable} in the environment of the run ` +
        `(it is read from there and never written to the store, the cache, an export or a log).`,
    );
    this.name = 'MissingApiKeyError';
    this.provider = provider;
    this.variable = variable;
  }
}

/**
 * The `local` provider was asked for without a base URL.
 *
 * @example
 * ```ts
 * resolveProvider('local', { env: {} }); // throws MissingBaseUrlError
 * ```
 * @see PROVIDER_PRESETS
 */
export class MissingBaseUrlError extends ModelsError {
  constructor(provider: string) {
    super(
      'missing_base_url',
      `Provider "${provider}" has no base URL: pass baseURLs.${provider} (or set POISSON_LOCAL_BASE_URL), ` +
        `e.g. http://127.0.0.1:8000/v1 for a vLLM or llama.cpp server.`,
    );
    this.name = 'MissingBaseUrlError';
  }
}

/**
 * A chat call failed for good: a non-retryable status, or every attempt failed. The message names the
 * model, the attempts and the last status; it never holds the provider's response body (which may echo
 * the prompt) nor the key: the message passes a scrubber that redacts the `secrets` given (the endpoint's
 * key) and any piece of one 8 or more characters long.
 *
 * @example
 * ```ts
 * // ModelCallError: The call to local:m failed after 3 attempts (last: HTTP 500) ...
 * ```
 * @see createChatClient
 */
export class ModelCallError extends ModelsError {
  readonly model: string;
  readonly attempts: number;
  readonly status: number | null;
  readonly kind: 'http' | 'timeout' | 'network' | 'invalid_response';
  constructor(
    model: string,
    attempts: number,
    status: number | null,
    kind: 'http' | 'timeout' | 'network' | 'invalid_response',
    hint: string,
    secrets: readonly string[] = [],
  ) {
    const last =
      kind === 'http' ? `HTTP ${status}` : kind === 'timeout' ? 'timed out' : kind === 'network' ? 'network error' : 'invalid response';
    super(
      'model_call_failed',
      scrubSecrets(`The call to ${model} failed after ${attempts} attempt${attempts === 1 ? '' : 's'} (last: ${last}): ${hint}`, secrets),
      1,
    );
    this.name = 'ModelCallError';
    this.model = model;
    this.attempts = attempts;
    this.status = status;
    this.kind = kind;
  }
}

/**
 * A planned sweep would need more tokens than the budget allows; nothing was called.
 *
 * @example
 * ```ts
 * checkPlanBudget(plan, 1000); // throws BudgetExceededError when plan.totals.budget_tokens > 1000
 * ```
 * @see checkPlanBudget
 */
export class BudgetExceededError extends ModelsError {
  readonly planned: number;
  readonly budget: number;
  constructor(planned: number, budget: number) {
    super(
      'budget_exceeded',
      `The plan needs up to ${planned} tokens (estimated prompt tokens plus the output cap of every uncached call) ` +
        `but the budget is ${budget}: raise --budget-tokens, lower --max-output-tokens, or narrow the sweep with --only.`,
    );
    this.name = 'BudgetExceededError';
    this.planned = planned;
    this.budget = budget;
  }
}

/**
 * The token usage of a run reached its budget: the run stops cleanly and can be resumed with a larger
 * budget. The budget's AbortSignal carries this error as its reason, so an executor given that signal
 * marks the run `interrupted`.
 *
 * @example
 * ```ts
 * budget.signal.reason instanceof BudgetExhaustedError; // after usage reached the limit
 * ```
 * @see TokenBudget
 */
export class BudgetExhaustedError extends ModelsError {
  readonly used: number;
  readonly budget: number;
  constructor(used: number, budget: number) {
    super(
      'budget_exhausted',
      `The run used ${used} tokens and reached its budget of ${budget}: it stops here and is resumable; ` +
        `resume it with a larger --budget-tokens.`,
      1,
    );
    this.name = 'BudgetExhaustedError';
    this.used = used;
    this.budget = budget;
  }
}

/**
 * A rubric task file is invalid. Lists every problem at once.
 *
 * @example
 * ```ts
 * parseRubricTask('id = 3'); // throws RubricTaskError listing each problem
 * ```
 * @see parseRubricTask
 */
export class RubricTaskError extends ModelsError {
  readonly problems: readonly string[];
  constructor(source: string, problems: readonly string[]) {
    super(
      'rubric_task_invalid',
      problemList(`The rubric task ${source}`, problems, ' and load it again'),
    );
    this.name = 'RubricTaskError';
    this.problems = Object.freeze([...problems]);
  }
}

/**
 * A price table is invalid or lacks a model of the plan.
 *
 * @example
 * ```ts
 * parsePriceTable('[models."poe:x"]\ninput = -1'); // throws PriceTableError
 * ```
 * @see parsePriceTable
 */
export class PriceTableError extends ModelsError {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(
      'price_table_invalid',
      problemList('The price table', problems, ''),
    );
    this.name = 'PriceTableError';
    this.problems = Object.freeze([...problems]);
  }
}
