import { grade } from './grader.js';
import type { ChatMessage } from './messages.js';
import type { CallRecord, PolicyAction } from './policy.js';
import type { Task } from './task.js';
import { fillTemplate } from './internal/fill-template.js';
import { TEMPLATES } from './internal/relay-data.js';
import { stageOutput } from './scenario.js';
import { shown } from './internal/shown.js';
import { deepFreeze } from './internal/deep-freeze.js';
import { requireArgument } from 'poisson-core';

/** How an episode ended. `truncated`: the turn budget ran out before an answer. */
export type Outcome = 'passed' | 'failed' | 'truncated';

/** What one environment step returns. */
export interface StepResult {
  /** Turns used so far (this step included). */
  readonly t: number;
  /** Whether the episode has ended. */
  readonly done: boolean;
  /** The outcome once done, else `null`. */
  readonly outcome: Outcome | null;
  /** The tool message content for a call (the output, or `error: ...`), `null` for an answer. */
  readonly observation: string | null;
  /** Whether the action was a valid call or an answer. */
  readonly valid: boolean;
}

/**
 * A task's environment, stepped one action at a time, so a chat loop can be driven turn by turn.
 * `messages` is the conversation so far, in the OpenAI-compatible shape.
 */
export interface Environment {
  readonly task: Task;
  readonly maxTurns: number;
  readonly messages: readonly ChatMessage[];
  readonly calls: readonly CallRecord[];
  readonly t: number;
  readonly done: boolean;
  readonly outcome: Outcome | null;
  /** The final answer text, once given. */
  readonly answer: string | null;
  /** Play one action. @throws Error when the episode is already done; TypeError for a malformed action. */
  step(action: PolicyAction): StepResult;
}

/**
 * A call's arguments as the record keeps them: a deep, frozen copy, so that neither the policy (which keeps
 * its own object and may change it after the call) nor a reader of the result can rewrite what was called.
 */
function frozenCopy(args: unknown): unknown {
  if (args === null || typeof args !== 'object') return args;
  // The usual arguments, a plain object of primitives ({ token }): a shallow copy is a whole one.
  if (Object.getPrototypeOf(args) === Object.prototype && Object.values(args).every((v) => v === null || (typeof v !== 'object' && typeof v !== 'function'))) {
    return Object.freeze({ ...(args as Record<string, unknown>) });
  }
  let copy: unknown;
  try {
    copy = structuredClone(args);
  } catch {
    // A value structuredClone refuses (a function inside): as the call's message holds it, JSON.
    copy = JSON.parse(JSON.stringify(args) ?? 'null') as unknown;
  }
  return deepFreeze(copy);
}

function checkCall(task: Task, name: string, args: unknown): { output: string } | string {
  if (!Object.prototype.hasOwnProperty.call(task.mappings, name)) {
    return `there is no tool named ${JSON.stringify(name)}`;
  }
  let parsed = args;
  if (typeof parsed === 'string') {
    try {
      parsed = JSON.parse(parsed) as unknown;
    } catch {
      return `the arguments are not valid JSON: ${parsed}`;
    }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return 'the arguments must be an object {"token": "..."}';
  const keys = Object.keys(parsed);
  const token = (parsed as Record<string, unknown>)['token'];
  if (keys.length !== 1 || typeof token !== 'string') return 'the arguments must be exactly {"token": "<a token>"}';
  const output = stageOutput(task, name, token);
  if (output === undefined) return `${JSON.stringify(token)} is not a token of this relay`;
  return { output };
}

/**
 * Create the environment of a task with a turn budget. Each step is one turn: a tool call is answered
 * with the stage's output (a valid call) or an `error: ...` message (an invalid one: unknown tool, bad
 * arguments or unknown token — under `strict` an invalid call ends the episode `failed`, under `lenient`
 * the episode goes on); an answer is graded and ends the episode `passed` or `failed`. When the budget is
 * spent without an answer the episode ends `truncated`.
 *
 * @param task - the task (from {@link generate})
 * @param options - `{ maxTurns }`, a positive integer (use {@link maxTurns})
 * @returns a fresh environment
 * @throws RangeError when `maxTurns` is not a positive integer, or is above 2^53 - 1 (Number.MAX_SAFE_INTEGER)
 * @example
 * ```ts
 * const env = createEnvironment(task, { maxTurns: 8 });
 * env.step({ kind: 'call', name: task.solution[0].name, arguments: task.solution[0].arguments });
 * ```
 */
export function createEnvironment(task: Task, options: { readonly maxTurns: number }): Environment {
  requireArgument('createEnvironment', 'task', task, 'object', 'the task generate returns');
  requireArgument('createEnvironment', 'options', options, 'object', 'an object with maxTurns');
  const budget = options.maxTurns;
  if (!Number.isInteger(budget) || budget < 1) throw new RangeError(`maxTurns must be a positive integer, got ${shown(budget)}`);
  if (budget > Number.MAX_SAFE_INTEGER) {
    throw new RangeError(`maxTurns must be at most 2^53 - 1 = ${Number.MAX_SAFE_INTEGER}, past which a number cannot count turns one by one (t + 1 equals t), so the episode could never reach its budget; got ${shown(budget)} (use maxTurns(arm, slack))`);
  }
  return new RelayEnvironment(task, budget);
}

/**
 * The {@link Environment} of {@link createEnvironment}: `t`, `done`, `outcome` and `answer` are getters of
 * the class, not of each environment. An object literal with getters, made once an episode, was V8's slow
 * path (node 20): each one survived its first minor GC and was moved to the old generation with what it
 * held, ~5 KB an episode of the depth-3 reference policy, and every minor GC of a loop of episodes copied
 * those (about a fifth of the loop's time); the class's objects die young. `step` stays an own function, so
 * that `const { step } = env` still steps this environment: the private method bound to it. As an arrow
 * function made in the constructor (`(action) => this.#step(action)`) it too kept finished environments
 * alive past minor GCs (755 to 1,340 bytes an episode promoted, against 334 to 346 bound), and in a
 * process that had allocated before its episodes V8 then pretenured their allocation sites: a loop of
 * reference episodes ran ~20% slower (docs/performance.md, Executor throughput, "First session of 2026-12-05").
 */
class RelayEnvironment implements Environment {
  readonly task: Task;
  readonly maxTurns: number;
  readonly messages: ChatMessage[];
  readonly calls: CallRecord[] = [];
  #t = 0;
  #outcome: Outcome | null = null;
  #answer: string | null = null;
  readonly step: (action: PolicyAction) => StepResult;

  constructor(task: Task, budget: number) {
    this.task = task;
    this.maxTurns = budget;
    this.messages = task.messages.slice();
    this.step = this.#step.bind(this);
  }

  get t(): number {
    return this.#t;
  }

  get done(): boolean {
    return this.#outcome !== null;
  }

  get outcome(): Outcome | null {
    return this.#outcome;
  }

  get answer(): string | null {
    return this.#answer;
  }

  #finish(o: Outcome | null, observation: string | null, valid: boolean): StepResult {
    if (o === null && this.#t >= this.maxTurns) o = 'truncated';
    this.#outcome = o;
    return { t: this.#t, done: o !== null, outcome: o, observation, valid };
  }

  #step(action: PolicyAction): StepResult {
    const task = this.task;
    if (this.#outcome !== null) throw new Error(`the episode of task ${task.taskId} is over (${this.#outcome}); create a new environment to play again`);
    if (action === null || typeof action !== 'object') throw new TypeError(`action must be an object, got ${String(action)}`);
    if (action.kind === 'answer') {
      if (typeof action.text !== 'string') throw new TypeError(`action.text must be a string, got ${typeof action.text}`);
      this.#t++;
      this.#answer = action.text;
      this.messages.push({ role: 'assistant', content: action.text });
      return this.#finish(grade(action.text, task.answer, task.strictness) ? 'passed' : 'failed', null, true);
    }
    if (action.kind !== 'call') throw new TypeError(`action.kind must be "call" or "answer", got ${JSON.stringify((action as { kind?: unknown }).kind)}`);
    const t = ++this.#t;
    const id = action.id ?? `call_${t}`;
    const checked = checkCall(task, action.name, action.arguments);
    const valid = typeof checked !== 'string';
    const output = valid ? checked.output : null;
    const error = valid ? null : checked;
    const observation = output ?? fillTemplate(TEMPLATES.invalidCall, { reason: error as string });
    this.calls.push(Object.freeze({ turn: t, name: action.name, arguments: frozenCopy(action.arguments), valid, output, error }));
    const argText = typeof action.arguments === 'string' ? action.arguments : (JSON.stringify(action.arguments) ?? 'null');
    this.messages.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: action.name, arguments: argText } }] });
    this.messages.push({ role: 'tool', tool_call_id: id, content: observation });
    return this.#finish(!valid && task.strictness === 'strict' ? 'failed' : null, observation, valid);
  }
}
