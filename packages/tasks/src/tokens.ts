import { createRequire } from 'node:module';
import type { ChatMessage, ToolDefinition } from './messages.js';
import type { Task } from './task.js';

// The o200k_base encoding comes from gpt-tokenizer, which ships its ranks inside the package: nothing
// is fetched at run time. Its tables take most of a second to load, so they are loaded by the first
// count, not on import: a process that never counts (a sweep's parent, a CLI) never pays for them.

type Encode = typeof import('gpt-tokenizer/encoding/o200k_base').encode;
let encoder: Encode | null = null;

/** gpt-tokenizer's o200k_base `encode`, loaded on first use (its CommonJS build, so the load is synchronous). */
function encode(...args: Parameters<Encode>): ReturnType<Encode> {
  encoder ??= (createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as { encode: Encode }).encode;
  return encoder(...args);
}

const NO_SPECIAL = { disallowedSpecial: new Set<string>() } as const;

/**
 * The number of o200k_base tokens in a text (the encoding of GPT-4o and later), with special-token
 * strings counted as ordinary text.
 *
 * @param text - any string
 * @returns its token count
 * @example
 * ```ts
 * countTokens('hello world'); // 2
 * ```
 * @see gpt-tokenizer 4.0.0, `gpt-tokenizer/encoding/o200k_base`
 */
export function countTokens(text: string): number {
  return encode(text, NO_SPECIAL).length;
}

/**
 * The canonical text of a context, the one {@link contextTokens} counts: the tools as one JSON line, then
 * each message as `<role>:` on its own line followed by its content (an assistant tool call as
 * `call <name> <arguments>`), every part ending in a newline. Tool-call ids are transport, not content,
 * and are left out.
 *
 * @param tools - the tool definitions
 * @param messages - the conversation
 * @returns the text
 * @example
 * ```ts
 * renderContext([], [{ role: 'user', content: 'hi' }]); // 'tools:\n[]\nuser:\nhi\n'
 * ```
 */
export function renderContext(tools: readonly ToolDefinition[], messages: readonly ChatMessage[]): string {
  return renderTools(tools) + messages.map(renderMessage).join('');
}

function renderTools(tools: readonly ToolDefinition[]): string {
  return `tools:\n${JSON.stringify(tools)}\n`;
}

function renderMessage(m: ChatMessage): string {
  if (m.role === 'assistant' && m.tool_calls !== undefined && m.tool_calls.length > 0) {
    const calls = m.tool_calls.map((c) => `call ${c.function.name} ${c.function.arguments}\n`).join('');
    return `assistant:\n${m.content === null || m.content === '' ? '' : `${m.content}\n`}${calls}`;
  }
  return `${m.role}:\n${m.content ?? ''}\n`;
}

// o200k_base splits text into pieces with a regex before byte-pair merging, and no piece crosses a point
// that follows a newline and precedes a character that is neither whitespace nor "/" (the only pieces that
// run on past a newline are whitespace runs and punctuation runs ending in [\r\n/]*). So the count of a
// text is the sum of the counts of its segments split at those points, and each segment can be memoized:
// the segments of relay prompts repeat across seeds ("Start token: vorn", "call stage_amber ...").
const MAX_MEMO = 200_000;
const memo = new Map<string, number>();
const toolsMemo = new WeakMap<readonly ToolDefinition[], number>();
const SPACE = /\s/;

/** Whether a UTF-16 code unit is one the split may not precede: whitespace (as the regex `\s`) or "/". */
function noSplitBefore(c: number): boolean {
  if (c === 47 || c === 32 || (c >= 9 && c <= 13)) return true;
  return c >= 128 && SPACE.test(String.fromCharCode(c));
}

function segmentCount(segment: string): number {
  let n = memo.get(segment);
  if (n === undefined) {
    n = countTokens(segment);
    if (memo.size >= MAX_MEMO) memo.clear();
    memo.set(segment, n);
  }
  return n;
}

/** The count of a text as the sum of its segments' counts: split after each "\n" followed by a character that is neither whitespace nor "/" (the points of the regex `(?<=\n)(?=[^\s/])`, found with indexOf). */
function segmentTokens(text: string): number {
  let total = 0;
  let start = 0;
  for (let nl = text.indexOf('\n'); nl !== -1 && nl + 1 < text.length; nl = text.indexOf('\n', nl + 1)) {
    if (noSplitBefore(text.charCodeAt(nl + 1))) continue;
    total += segmentCount(text.slice(start, nl + 1));
    start = nl + 1;
  }
  return total + segmentCount(text.slice(start));
}

/**
 * The o200k_base token count of a context's canonical text ({@link renderContext}): exactly
 * `countTokens(renderContext(tools, messages))`, computed from memoized segments so that counting a
 * prompt per episode costs microseconds.
 *
 * @param tools - the tool definitions (counted once per array object)
 * @param messages - the conversation
 * @returns the token count
 * @example
 * ```ts
 * contextTokens(task.tools, task.messages) === countTokens(renderContext(task.tools, task.messages)); // true
 * ```
 */
export function contextTokens(tools: readonly ToolDefinition[], messages: readonly ChatMessage[]): number {
  let toolCount = toolsMemo.get(tools);
  if (toolCount === undefined) {
    toolCount = countTokens(renderTools(tools));
    toolsMemo.set(tools, toolCount);
  }
  // renderTools and every rendered message end in "\n", and every message starts with its role name: each
  // boundary is a split point, so the parts add up, message by message.
  let total = toolCount;
  for (const m of messages) total += segmentTokens(renderMessage(m));
  return total;
}

/**
 * The prompt tokens of a task: {@link contextTokens} of its tools and its prompt messages (for a control
 * arm, the history included).
 *
 * @param task - the task
 * @returns the count
 * @example
 * ```ts
 * promptTokens(generate(d1, 0)); // about 720 at generator version 0
 * ```
 */
export function promptTokens(task: Task): number {
  return contextTokens(task.tools, task.messages);
}
