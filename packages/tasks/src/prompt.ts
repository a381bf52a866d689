import { fillTemplate } from './internal/fill-template.js';
import { EMPTY_SLOT, OTHER_SLOTS, TEMPLATES } from './internal/relay-data.js';
import { requireArgument } from 'poisson-core';

/** The system message every task starts with. */
export const SYSTEM_PROMPT: string = TEMPLATES.system;

/**
 * Render the task message from the one template: the start token, the route (tool names joined by
 * `" -> "`) and the other open stages (always {@link OTHER_SLOTS} slots, unused ones saying `(vacant)`, so the
 * width knob keeps one length budget).
 *
 * @param start - the start token
 * @param route - the tool names to call, in order (at least one)
 * @param others - distractor tool names (at most 3)
 * @returns the message text, lines joined by `\n`
 * @throws RangeError when the route is empty or there are more others than slots
 * @example
 * ```ts
 * renderTaskMessage('vorn', ['stage_amber'], []).split('\n')[2]; // 'Other open stages: (vacant), (vacant), (vacant)'
 * ```
 */
export function renderTaskMessage(start: string, route: readonly string[], others: readonly string[]): string {
  requireArgument('renderTaskMessage', 'start', start, 'string');
  requireArgument('renderTaskMessage', 'route', route, 'array', 'an array of stage names');
  requireArgument('renderTaskMessage', 'others', others, 'array', 'an array of stage names');
  if (route.length === 0) throw new RangeError('route must name at least one stage, got an empty list');
  if (others.length > OTHER_SLOTS) throw new RangeError(`others must have at most ${OTHER_SLOTS} stages, got ${others.length}`);
  const slots = [...others, ...Array<string>(OTHER_SLOTS - others.length).fill(EMPTY_SLOT)];
  return fillTemplate(TEMPLATES.task, {
    start,
    route: route.join(TEMPLATES.routeSeparator),
    others: slots.join(TEMPLATES.othersSeparator),
  }).join('\n');
}
