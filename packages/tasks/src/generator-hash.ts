import { GENERATOR_VERSIONS } from './arm-spec.js';
import { canonicalJson } from './internal/canonical-json.js';
import { sha256Hex } from './internal/sha256.js';
import {
  ALGORITHM,
  EMPTY_SLOT,
  MESSAGE_LAYOUT,
  OTHER_SLOTS,
  SPLIT_RESIDUES,
  STAGE_NAMES,
  TEMPLATES,
  TOOL_TEMPLATE,
  WORDS,
} from './internal/relay-data.js';
import { promptMessages } from './internal/prompt-messages.js';
import { KNOBS } from './knobs.js';
import { GRADER_RULES } from './grader.js';
import { renderTaskMessage } from './prompt.js';
import { relayTools } from './tools.js';

// A fixed specimen prompt, built by the same code generate uses: two history calls, then a task message
// naming three stages and one distractor. Hashing its messages covers the code that assembles a prompt
// (message structure, history call ids, argument encoding, task-message rendering), not only its data.
function specimenMessages(): readonly unknown[] {
  const [a, b, c, d] = relayTools().map((t) => t.function.name);
  const [w0, w1, w2] = WORDS;
  const history = [
    { call: { name: a as string, arguments: { token: w0 as string } }, output: w1 as string },
    { call: { name: b as string, arguments: { token: w1 as string } }, output: w2 as string },
  ];
  return promptMessages(history, renderTaskMessage(w2 as string, [c as string], [d as string]));
}

/**
 * The generator's identity as a plain value: its version and everything that decides a task — the word
 * list, stage names, templates (the history call id template among them), the split rule, the algorithm's
 * parameters (the distinct-chain rule for start tokens among them), the tool template and the full tool
 * definitions built from it, the prompt's message layout and a specimen prompt built by the same code as
 * every task's, every knob's declared levels, shapes and controls, and the grader's rules. `generate`
 * reads the tools, the message layout and the history call ids from this same data.
 * {@link generatorHash} is the sha256 of its canonical JSON.
 *
 * @param generatorVersion - one of {@link GENERATOR_VERSIONS}
 * @returns the identity object
 * @throws RangeError when the version is unknown
 * @example
 * ```ts
 * generatorIdentity('0').version; // '0'
 * ```
 */
export function generatorIdentity(generatorVersion: string): Record<string, unknown> {
  if (!GENERATOR_VERSIONS.includes(generatorVersion)) {
    throw new RangeError(`generatorVersion must be one of ${GENERATOR_VERSIONS.join(', ')}, got ${JSON.stringify(generatorVersion)}`);
  }
  const knobs = Object.values(KNOBS).map((k) => ({
    name: k.name,
    description: k.description,
    levels: k.levels,
    shapes: k.levels.map((l) => k.shape(l)),
    controls: k.levels.map((l) =>
      k.controls(l).map((c) => ({ ...c, shape: k.controlShape(c.level, c.controlHistory), description: k.describeControl(c) })),
    ),
  }));
  return {
    generator: 'poisson-tasks relay',
    version: generatorVersion,
    words: WORDS,
    stages: STAGE_NAMES,
    splitResidues: SPLIT_RESIDUES,
    otherSlots: OTHER_SLOTS,
    emptySlot: EMPTY_SLOT,
    templates: TEMPLATES,
    algorithm: ALGORITHM,
    toolTemplate: TOOL_TEMPLATE,
    tools: relayTools(),
    messageLayout: MESSAGE_LAYOUT,
    specimenMessages: specimenMessages(),
    knobs,
    grader: GRADER_RULES,
  };
}

const cache = new Map<string, string>();

/**
 * The generator hash: `sha256(canonicalJson(generatorIdentity(version)))`, lower-case hex. All arms of
 * one generator version share it; changing a template, a word or a parameter changes it.
 *
 * @param generatorVersion - one of {@link GENERATOR_VERSIONS}
 * @returns 64 hex digits
 * @throws RangeError when the version is unknown
 * @example
 * ```ts
 * generatorHash('0'); // the value pinned in generate.test.ts
 * ```
 */
export function generatorHash(generatorVersion: string): string {
  let hash = cache.get(generatorVersion);
  if (hash === undefined) {
    hash = sha256Hex(canonicalJson(generatorIdentity(generatorVersion)));
    cache.set(generatorVersion, hash);
  }
  return hash;
}
