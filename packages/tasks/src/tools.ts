import type { ToolDefinition } from './messages.js';
import { deepFreeze } from './internal/deep-freeze.js';
import { fillTemplate } from './internal/fill-template.js';
import { STAGE_NAMES, TOOL_TEMPLATE } from './internal/relay-data.js';
import { requireArgument } from 'poisson-core';

/**
 * The tool name of a stage (the tool template's name with `{stage}` filled in).
 * @param stage - a stage name
 * @returns the tool name
 * @example
 * ```ts
 * stageToolName('amber'); // 'stage_amber'
 * ```
 */
export function stageToolName(stage: string): string {
  requireArgument('stageToolName', 'stage', stage, 'string', 'a stage name');
  return fillTemplate(TOOL_TEMPLATE.function.name, { stage });
}

// Every definition is the one tool template filled in with a stage name: nothing of a tool is decided
// here, so the generator hash (which holds the template and these definitions) covers all of it.
const TOOLS: readonly ToolDefinition[] = deepFreeze(STAGE_NAMES.map((stage): ToolDefinition => fillTemplate(TOOL_TEMPLATE, { stage })));

/**
 * The relay's tool set: one tool per stage (`stage_amber` ... `stage_harbor`), each taking `{ token: string }`,
 * each the tool template of the generator's data filled in with its stage. The same deeply frozen array for
 * every arm and every scenario of a generator version, so every arm of a scenario is offered exactly the
 * same tools.
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
