import type { ChatMessage, StageCall } from '../messages.js';
import { SYSTEM_PROMPT } from '../prompt.js';
import { deepFreeze } from './deep-freeze.js';
import { fillTemplate } from './fill-template.js';
import { MESSAGE_LAYOUT, TEMPLATES } from './relay-data.js';

/** The id of the i-th (1-based) history call: the `historyCallId` template filled in. */
export function historyCallId(i: number): string {
  return fillTemplate(TEMPLATES.historyCallId, { i: String(i) });
}

/**
 * A task's prompt messages, built from {@link MESSAGE_LAYOUT} alone: its parts in the layout's order, the
 * `history` part expanded to one `historyStep` per history call. Deeply frozen (the environment shares
 * these objects with every episode of the task).
 */
export function promptMessages(history: readonly { readonly call: StageCall; readonly output: string }[], taskText: string): readonly ChatMessage[] {
  const messages: ChatMessage[] = [];
  const part = (name: keyof typeof MESSAGE_LAYOUT.messages, values: Record<string, string>): void => {
    messages.push(fillTemplate(MESSAGE_LAYOUT.messages[name], values) as ChatMessage);
  };
  for (const name of MESSAGE_LAYOUT.prompt) {
    if (name === 'history') {
      history.forEach((step, i) => {
        const values = { callId: historyCallId(i + 1), tool: step.call.name, token: JSON.stringify(step.call.arguments.token).slice(1, -1), output: step.output };
        for (const stepPart of MESSAGE_LAYOUT.historyStep) part(stepPart, values);
      });
    } else if (name === 'system') {
      part(name, { system: SYSTEM_PROMPT });
    } else {
      part(name, { task: taskText });
    }
  }
  return deepFreeze(messages);
}
