import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { estimatePromptTokens } from './token-estimate.js';

// Reference: gpt-tokenizer 4.0.0's o200k_base (`encode(text, { disallowedSpecial: new Set() })`), with the
// cookbook's per-message formula written out here.
const count = (s: string): number => encode(s, { disallowedSpecial: new Set() }).length;

describe('estimatePromptTokens', () => {
  it("is the cookbook's formula over gpt-tokenizer's o200k_base counts", () => {
    const request = {
      messages: [
        { role: 'system' as const, content: 'You are terse.' },
        { role: 'user' as const, content: 'Hello! ¿Qué tal? 東京 🚀' },
        { role: 'assistant' as const, content: null, tool_calls: [{ id: 'c1', type: 'function' as const, function: { name: 'lookup', arguments: '{"q":"x"}' } }] },
        { role: 'tool' as const, tool_call_id: 'c1', content: 'result 42' },
      ],
      tools: [{ type: 'function' as const, function: { name: 'lookup', description: 'Look a thing up', parameters: { type: 'object', properties: { q: { type: 'string' } } } } }],
    };
    const want =
      3 +
      (3 + count('system') + count('You are terse.')) +
      (3 + count('user') + count('Hello! ¿Qué tal? 東京 🚀')) +
      (3 + count('assistant') + count(JSON.stringify(request.messages[2]!.tool_calls))) +
      (3 + count('tool') + count('result 42') + count('c1')) +
      count(JSON.stringify(request.tools));
    expect(estimatePromptTokens(request as never)).toBe(want);
    expect(estimatePromptTokens({ messages: [{ role: 'user', content: 'Hello!' }] })).toBe(9);
  });

  it('counts a special-token string in a prompt as text (it threw "Disallowed special token" before)', () => {
    const text = 'the model printed <|endoftext|> and stopped';
    expect(estimatePromptTokens({ messages: [{ role: 'user', content: text }] })).toBe(3 + 3 + count('user') + count(text));
  });
});
