import type { ArmSpec } from './arm-spec.js';
import { GENERATOR_VERSIONS, SPLITS, STRICTNESSES } from './arm-spec.js';
import { armId } from './arm-id.js';
import { generatorHash } from './generator-hash.js';
import { armShape } from './knobs.js';
import type { StageCall } from './messages.js';
import { renderTaskMessage } from './prompt.js';
import { drawScenario, stageOutput } from './scenario.js';
import type { HistoryStep, Task } from './task.js';
import { relayTools } from './tools.js';
import { sha256Hex } from './internal/sha256.js';
import { promptMessages } from './internal/prompt-messages.js';

/** @internal the id of the i-th (1-based) history call (the generator data's `historyCallId` template) */
export { historyCallId } from './internal/prompt-messages.js';

/**
 * Generate the task of an arm on a seed. The scenario comes from (generator version, split, seed) alone
 * ({@link drawScenario}); the arm's knob declaration decides the shape: a task of depth `d` plays route
 * stages `h .. h + d - 1` from the token reached after `h` history calls, where `h = shape.historyCalls`
 * (0 for treatments), and shows `shape.distractors` of the remaining route stages as other open stages.
 * The tools and the prompt's structure (message parts, history call ids) come from the generator's data,
 * which the generator hash covers. Deterministic: the same arguments give a byte-identical task (as JSON)
 * on every machine. The task is deeply frozen (its messages are shared with every environment of it).
 *
 * @param arm - the arm (see {@link ArmSpec})
 * @param seed - a non-negative safe integer
 * @returns the frozen task, with `generatorHash`
 * @throws RangeError naming the field when the arm's knob, level, control, strictness, split or version is unknown, or the seed is not a non-negative safe integer
 * @example
 * ```ts
 * const task = generate({ knob: 'depth', level: 3, controlHistory: null, strictness: 'strict', split: 'eval', generatorVersion: '0' }, 0);
 * task.solution.length; // 3
 * task.neededTurns;     // 4
 * ```
 * @see TASKS.md, "Tasks and episodes"
 */
export function generate(arm: ArmSpec, seed: number): Task {
  const shape = armShape(arm);
  if (!STRICTNESSES.includes(arm.strictness)) {
    throw new RangeError(`arm.strictness must be "strict" or "lenient", got ${JSON.stringify(arm.strictness)}`);
  }
  if (!SPLITS.includes(arm.split)) throw new RangeError(`arm.split must be one of ${SPLITS.join(', ')}, got ${JSON.stringify(arm.split)}`);
  if (!GENERATOR_VERSIONS.includes(arm.generatorVersion)) {
    throw new RangeError(
      `arm.generatorVersion must be one of ${GENERATOR_VERSIONS.join(', ')}, got ${JSON.stringify(arm.generatorVersion)}`,
    );
  }
  const scenario = drawScenario(arm.generatorVersion, arm.split, seed);
  const hash = generatorHash(arm.generatorVersion);
  const id = armId(arm);

  const h = shape.historyCalls;
  const tokens: string[] = [scenario.start];
  const calls: StageCall[] = [];
  for (let i = 0; i < h + shape.depth; i++) {
    const name = scenario.route[i] as string;
    const input = tokens[i] as string;
    calls.push(Object.freeze({ name, arguments: Object.freeze({ token: input }) }));
    tokens.push(stageOutput(scenario, name, input) as string);
  }
  const history: HistoryStep[] = calls.slice(0, h).map((call, i) => Object.freeze({ call, output: tokens[i + 1] as string }));
  const solution = calls.slice(h);
  const route = solution.map((c) => c.name);
  const others = scenario.route.slice(h + shape.depth, h + shape.depth + shape.distractors);
  const start = tokens[h] as string;

  const messages = promptMessages(history, renderTaskMessage(start, route, others));

  return Object.freeze({
    taskId: sha256Hex(`${hash}|${scenario.scenarioId}|${id}|${arm.strictness}`).slice(0, 16),
    scenarioId: scenario.scenarioId,
    armId: id,
    arm: Object.freeze({ ...arm }),
    seed,
    split: arm.split,
    strictness: arm.strictness,
    generatorVersion: arm.generatorVersion,
    generatorHash: hash,
    shape: Object.freeze({ ...shape }),
    tools: relayTools(),
    messages,
    start,
    route: Object.freeze(route),
    others: Object.freeze(others),
    history: Object.freeze(history),
    solution: Object.freeze(solution),
    answer: tokens[h + shape.depth] as string,
    neededTurns: shape.depth + 1,
    tokens: scenario.tokens,
    mappings: scenario.mappings,
  });
}
