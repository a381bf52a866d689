import type { ToolDefinition } from './messages.js';
import { STAGE_NAMES, TEMPLATES } from './internal/relay-data.js';

const fill = (template: string, stage: string): string => template.replaceAll('{stage}', stage);

/**
 * The tool name of a stage.
 * @param stage - a stage name
 * @returns the tool name
 * @example
 * ```ts
 * stageToolName('amber'); // 'stage_amber'
 * ```
 */
export function stageToolName(stage: string): string {
  return fill(TEMPLATES.toolName, stage);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

const TOOLS: readonly ToolDefinition[] = deepFreeze(
  STAGE_NAMES.map(
    (stage): ToolDefinition => ({
      type: 'function',
      function: {
        name: stageToolName(stage),
        description: fill(TEMPLATES.toolDescription, stage),
        parameters: {
          type: 'object',
          properties: { token: { type: 'string', description: fill(TEMPLATES.tokenDescription, stage) } },
          required: ['token'],
          additionalProperties: false,
        },
      },
    }),
  ),
);

/**
 * The relay's tool set: one tool per stage (`stage_amber` ... `stage_harbor`), each taking `{ token: string }`.
 * The same frozen array for every arm and every scenario of a generator version, so every arm of a scenario
 * is offered exactly the same tools.
 *
 * @returns the tools, in the shape OpenAI-compatible chat APIs take in `tools`
 * @example
 * ```ts
 * relayTools()[0].function.name; // 'stage_amber'
 * ```
 */
export function relayTools(): readonly ToolDefinition[] {
  return TOOLS;
}
