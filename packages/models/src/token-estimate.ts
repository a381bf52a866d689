import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import type { ChatRequest } from './chat-types.js';

/**
 * Estimated prompt tokens of a request, by o200k_base (the `gpt-tokenizer` package ships the encoding;
 * nothing is fetched). Formula (the OpenAI cookbook's count for chat messages, extended to tools):
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
  let n = 3;
  for (const m of request.messages) {
    n += 3 + encode(m.role).length;
    if (typeof m.content === 'string') n += encode(m.content).length;
    if (m.role === 'assistant' && m.tool_calls && m.tool_calls.length > 0) n += encode(JSON.stringify(m.tool_calls)).length;
    if (m.role === 'tool') n += encode(m.tool_call_id).length;
  }
  if (request.tools && request.tools.length > 0) n += encode(JSON.stringify(request.tools)).length;
  return n;
}
