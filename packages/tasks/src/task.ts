import type { ArmSpec, Split, Strictness } from './arm-spec.js';
import type { TaskShape } from './knobs.js';
import type { ChatMessage, StageCall, ToolDefinition } from './messages.js';

/** A call given as history in a control arm's context, with the output the stage returned. */
export interface HistoryStep {
  readonly call: StageCall;
  readonly output: string;
}

/**
 * A generated task: what the policy sees (`tools`, `messages`), what the environment needs (`mappings`,
 * `answer`, `strictness`) and what the reference policy plays (`solution`). A model-backed policy must read
 * only `tools` and `messages`.
 */
export interface Task {
  /** First 16 hex of sha256(generator hash | scenario id | arm id | strictness). */
  readonly taskId: string;
  /** The scenario's id: the same for every arm on one (version, split, seed). */
  readonly scenarioId: string;
  readonly armId: string;
  readonly arm: ArmSpec;
  readonly seed: number;
  readonly split: Split;
  readonly strictness: Strictness;
  readonly generatorVersion: string;
  readonly generatorHash: string;
  /** The arm's task shape, from its knob's declaration. */
  readonly shape: TaskShape;
  /** The tools offered: the same for every arm of a scenario. */
  readonly tools: readonly ToolDefinition[];
  /** The prompt: system message, then (controls) the history, then the task message. Deeply frozen: every environment of the task shares these objects. */
  readonly messages: readonly ChatMessage[];
  /** The token the live route starts from. */
  readonly start: string;
  /** The stages (tool names) the live task plays, in order. */
  readonly route: readonly string[];
  /** Distractor stages shown open beside the route. */
  readonly others: readonly string[];
  /** Calls given as history (controls only). */
  readonly history: readonly HistoryStep[];
  /** The calls the reference policy makes. */
  readonly solution: readonly StageCall[];
  /** The goal token. */
  readonly answer: string;
  /** Turns needed when played right: `route.length + 1`. */
  readonly neededTurns: number;
  /** The relay's tokens; `mappings` is indexed like it. */
  readonly tokens: readonly string[];
  /** The hidden mappings the environment answers from: `mappings[toolName][i]` is the output for `tokens[i]` (see stageOutput). */
  readonly mappings: Readonly<Record<string, readonly string[]>>;
}
