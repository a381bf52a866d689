import { isUtf8 } from 'node:buffer';
import { asciiPattern } from './internal/ascii-split.js';
import { BYTES_ENTRY, findRank, loadRankTable, STRING_ENTRY, type RankTable } from './internal/o200k-ranks.js';
import type { ChatMessage, ToolDefinition } from './messages.js';
import type { Task } from './task.js';
import { shown } from './internal/shown.js';
import { requireArgument } from 'poisson-core';

// The o200k_base count is gpt-tokenizer 4.0.0's (`encode(text, { disallowedSpecial: new Set() }).length`),
// computed here from its split pattern and its ranks, both held in a sorted byte table (internal/o200k-ranks.ts):
// loading gpt-tokenizer's encoder takes ~150 ms per process, the table a few. The table is loaded by the
// first count, not on import. tokens.test.ts checks the counts against gpt-tokenizer's.

let table: RankTable | null = null;
let split: RegExp | null = null;
let asciiSplit: RegExp | null = null;
const ASCII_TEXT = /^[\0-\x7f]*$/;

/** The split of a text: the pattern narrowed to ASCII (internal/ascii-split.ts) on ASCII text, else the full one. */
function splitter(t: RankTable, text: string): RegExp {
  if (ASCII_TEXT.test(text)) {
    if (asciiSplit === null) {
      const ascii = asciiPattern(t.pattern);
      asciiSplit = ascii === null ? (split ??= new RegExp(t.pattern, 'gu')) : new RegExp(ascii, 'g');
    }
    return asciiSplit;
  }
  return (split ??= new RegExp(t.pattern, 'gu')); // gpt-tokenizer's O200K_TOKEN_SPLIT_REGEX (flags gu)
}
const utf8 = new TextEncoder();
const LONE_SURROGATE = /\p{Cs}/u; // in a u-mode regex a surrogate pair is one code point: only lone ones match

/** The rank of the byte pair `piece[start .. end)` as gpt-tokenizer looks it up, or Infinity. */
function pairRank(t: RankTable, piece: Uint8Array, start: number, end: number): number {
  let rank: number;
  if (isUtf8(piece.subarray(start, end))) {
    // Valid UTF-8 is decoded and looked up as a string; the decoder drops one leading byte-order mark.
    const bom = end - start >= 3 && piece[start] === 0xef && piece[start + 1] === 0xbb && piece[start + 2] === 0xbf;
    rank = findRank(t, piece, bom ? start + 3 : start, end, STRING_ENTRY);
  } else {
    rank = findRank(t, piece, start, end, BYTES_ENTRY);
  }
  return rank < 0 ? Infinity : rank;
}

/**
 * The number of tokens byte-pair merging leaves of a piece (tiktoken's `byte_pair_merge`): start from
 * single bytes, repeatedly merge the adjacent pair of lowest rank (the leftmost on a tie) until no pair
 * has a rank.
 */
function mergedParts(t: RankTable, piece: Uint8Array): number {
  const starts: number[] = [];
  const ranks: number[] = [];
  for (let i = 0; i <= piece.length; i++) {
    starts.push(i);
    ranks.push(i < piece.length - 1 ? pairRank(t, piece, i, i + 2) : Infinity);
  }
  const rankAt = (i: number): number => {
    const end = starts[i + 2];
    return end === undefined ? Infinity : pairRank(t, piece, starts[i]!, end);
  };
  while (starts.length > 1) {
    let lowest = Infinity;
    let at = -1;
    for (let i = 0; i < ranks.length - 1; i++) {
      if (ranks[i]! < lowest) {
        lowest = ranks[i]!;
        at = i;
      }
    }
    if (at === -1) break;
    starts.splice(at + 1, 1);
    ranks.splice(at, 1);
    ranks[at] = rankAt(at);
    if (at > 0) ranks[at - 1] = rankAt(at - 1);
  }
  return starts.length - 1;
}

// Pieces repeat (words, punctuation, indentation): their counts are kept, as gpt-tokenizer keeps its
// merges, so that a piece costs one Map lookup after its first time.
const MAX_PIECE_MEMO = 100_000;
const pieceMemo = new Map<string, number>();

/** The tokens of one piece of the split: one when the piece is a token, else what merging leaves. */
function pieceTokens(t: RankTable, piece: string): number {
  let n = pieceMemo.get(piece);
  if (n === undefined) {
    const bytes = utf8.encode(piece);
    // gpt-tokenizer looks the piece up as a string first; a string with a lone surrogate is no token.
    n = !LONE_SURROGATE.test(piece) && findRank(t, bytes, 0, bytes.length, STRING_ENTRY) >= 0 ? 1 : mergedParts(t, bytes);
    if (pieceMemo.size >= MAX_PIECE_MEMO) pieceMemo.clear();
    pieceMemo.set(piece, n);
  }
  return n;
}

/**
 * The number of o200k_base tokens in a text (the encoding of GPT-4o and later), with special-token
 * strings counted as ordinary text.
 *
 * @param text - any string
 * @returns its token count
 * @throws TypeError when text is not a string
 * @example
 * ```ts
 * countTokens('hello world'); // 2
 * ```
 * @see gpt-tokenizer 4.0.0, `gpt-tokenizer/encoding/o200k_base` (the same count; its split pattern and ranks)
 */
export function countTokens(text: string): number {
  if (typeof text !== 'string') throw new TypeError(`countTokens: text must be a string, got ${shown(text)}`);
  table ??= loadRankTable();
  let n = 0;
  for (const [piece] of text.matchAll(splitter(table, text))) n += pieceTokens(table, piece);
  return n;
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
  requireArgument('renderContext', 'tools', tools, 'array', 'an array of tool definitions');
  requireArgument('renderContext', 'messages', messages, 'array', 'an array of chat messages');
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

// The last segment of a rendered message is its content's last segment and the "\n" renderMessage ends it
// with: memoized by the segment without that "\n" (so the content's own string is the key of a one-line
// message, without a copy); and "<role>:\n", the first segment of most messages, by the role.
const tailMemo = new Map<string, number>();
const headerMemo = new Map<string, number>();

/** The count of `tail + "\n"`. */
function tailCount(tail: string): number {
  let n = tailMemo.get(tail);
  if (n === undefined) {
    n = countTokens(`${tail}\n`);
    if (tailMemo.size >= MAX_MEMO) tailMemo.clear();
    tailMemo.set(tail, n);
  }
  return n;
}

function headerCount(role: string): number {
  let n = headerMemo.get(role);
  if (n === undefined) {
    n = countTokens(`${role}:\n`);
    if (headerMemo.size >= MAX_MEMO) headerMemo.clear();
    headerMemo.set(role, n);
  }
  return n;
}

/**
 * The count of a rendered message, `segmentTokens(renderMessage(m))`, without rendering it when it is
 * `<role>:\n<content>\n` with a content that starts where the split may fall: then "<role>:\n" is a
 * segment, the content's segments follow, and the last of them ends with the message's "\n" (no split
 * point falls before that "\n", nor after it).
 */
function messageTokens(m: ChatMessage): number {
  if (m.role === 'assistant' && m.tool_calls !== undefined && m.tool_calls.length > 0) return segmentTokens(renderMessage(m));
  const content = m.content ?? '';
  if (content.length === 0 || noSplitBefore(content.charCodeAt(0)) || m.role.includes('\n')) return segmentTokens(renderMessage(m));
  let total = headerCount(m.role);
  let start = 0;
  for (let nl = content.indexOf('\n'); nl !== -1 && nl + 1 < content.length; nl = content.indexOf('\n', nl + 1)) {
    if (noSplitBefore(content.charCodeAt(nl + 1))) continue;
    total += segmentCount(content.slice(start, nl + 1));
    start = nl + 1;
  }
  return total + tailCount(start === 0 ? content : content.slice(start));
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
  requireArgument('contextTokens', 'tools', tools, 'array', 'an array of tool definitions');
  requireArgument('contextTokens', 'messages', messages, 'array', 'an array of chat messages');
  let toolCount = toolsMemo.get(tools);
  if (toolCount === undefined) {
    toolCount = countTokens(renderTools(tools));
    toolsMemo.set(tools, toolCount);
  }
  // renderTools and every rendered message end in "\n", and every message starts with its role name: each
  // boundary is a split point, so the parts add up, message by message.
  let total = toolCount;
  for (const m of messages) total += messageTokens(m);
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
  requireArgument('promptTokens', 'task', task, 'object', 'the task generate returns');
  return contextTokens(task.tools, task.messages);
}
