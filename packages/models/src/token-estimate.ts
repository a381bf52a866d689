import { countTokens } from 'poisson-tasks';
import type { ChatRequest } from './chat-types.js';
import { requireArgument } from 'poisson-core';

/**
 * Estimated prompt tokens of a request, by o200k_base (poisson-tasks' `countTokens`: gpt-tokenizer's
 * counts, special-token strings such as `<|endoftext|>` counted as text; nothing is fetched). Formula (the OpenAI cookbook's count for chat messages, extended to tools):
 * sum over messages of (3 + |role| + |content| + |tool_calls as JSON| + |tool_call_id|) + 3 + |tools as JSON|,
 * where |x| is the o200k_base token count. Providers tokenize differently; the figure is a planning
 * estimate, not a bill.
 *
 * @param request - the request.
 * @returns a non-negative integer.
 * @example
 * ```ts
 * estimatePromptTokens({ messages: [{ role: 'user', content: 'Hello!' }] }); // 9
 * ```
 * @see https://cookbook.openai.com/examples/how_to_count_tokens_with_tiktoken
 */
export function estimatePromptTokens(request: ChatRequest): number {
  requireArgument('estimatePromptTokens', 'request', request, 'object', 'a chat request ({ messages, tools })');
  let n = 3;
  for (const m of request.messages) {
    n += 3 + countTokens(m.role);
    if (typeof m.content === 'string') n += countTokens(m.content);
    if (m.role === 'assistant' && m.tool_calls && m.tool_calls.length > 0) n += countTokens(JSON.stringify(m.tool_calls));
    if (m.role === 'tool') n += countTokens(m.tool_call_id);
  }
  if (request.tools && request.tools.length > 0) n += countTokens(JSON.stringify(request.tools));
  return n;
}
