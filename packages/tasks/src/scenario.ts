import type { Split } from './arm-spec.js';
import { GENERATOR_VERSIONS, SPLITS } from './arm-spec.js';
import { fillTemplate } from './internal/fill-template.js';
import { keyedRng, randomInt, sattoloCycle, shuffled } from './internal/rng.js';
import { sha256Hex } from './internal/sha256.js';
import { shown } from './internal/shown.js';
import { ALGORITHM, SPLIT_RESIDUES, STAGE_NAMES, WORDS } from './internal/relay-data.js';
import { stageToolName } from './tools.js';
import { requireArgument } from 'poisson-core';

/**
 * A relay scenario: the hidden world of one (generator version, split, seed). Every arm played on the
 * same seed plays this same scenario.
 */
export interface Scenario {
  /** First 16 hex digits of the sha256 of the scenario's content. */
  readonly scenarioId: string;
  readonly generatorVersion: string;
  readonly split: Split;
  readonly seed: number;
  /** The start token of the full route. */
  readonly start: string;
  /** Every stage's tool name, in the order the route visits them (a depth-d task plays the first d). */
  readonly route: readonly string[];
  /** The relay's tokens (the word list); `mappings` is indexed like it. */
  readonly tokens: readonly string[];
  /** The hidden mappings: `mappings[toolName][i]` is the token the stage returns for `tokens[i]` (see {@link stageOutput}). */
  readonly mappings: Readonly<Record<string, readonly string[]>>;
}

/** @internal shared argument checks */
function checkSeed(seed: number): void {
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw new RangeError(`seed must be a non-negative safe integer, got ${shown(seed)}`);
  }
}

/**
 * Draw the scenario of (generator version, split, seed) from seedrandom's Alea keyed by
 * `relay/<version>/<split>/<seed>`: the route (a shuffle of the 8 stages), each stage's hidden mapping (a
 * single cycle through the 48 words, so no stage maps a token to itself and every stage is a bijection),
 * then the start token, uniform over the split's third of the word list (so splits never share a scenario)
 * restricted to the words whose chain through the whole route visits 9 distinct tokens. Every task of the
 * scenario plays a stretch of that chain, so for every arm the goal differs from the start token and from
 * every token before it (an answer that repeats the start, or any earlier token, always fails). When no
 * word of the split is eligible, route and mappings are drawn again from the same stream.
 *
 * @param generatorVersion - one of {@link GENERATOR_VERSIONS}
 * @param split - `train`, `dev` or `eval`
 * @param seed - a non-negative safe integer
 * @returns the frozen scenario
 * @throws RangeError naming the argument when the version or split is unknown or the seed is not a non-negative safe integer
 * @example
 * ```ts
 * drawScenario('0', 'eval', 0).route.length; // 8
 * ```
 */
export function drawScenario(generatorVersion: string, split: Split, seed: number): Scenario {
  if (!GENERATOR_VERSIONS.includes(generatorVersion)) {
    throw new RangeError(`generatorVersion must be one of ${GENERATOR_VERSIONS.join(', ')}, got ${JSON.stringify(generatorVersion)}`);
  }
  if (!SPLITS.includes(split)) throw new RangeError(`split must be one of ${SPLITS.join(', ')}, got ${JSON.stringify(split)}`);
  checkSeed(seed);
  const rng = keyedRng(fillTemplate(ALGORITHM.scenarioKey, { version: generatorVersion, split, seed: String(seed) }));
  const residue = SPLIT_RESIDUES[split];
  const pool: number[] = [];
  WORDS.forEach((_, i) => {
    if (i % 3 === residue) pool.push(i);
  });
  for (;;) {
    const order = shuffled(rng, STAGE_NAMES);
    const cycles = STAGE_NAMES.map(() => sattoloCycle(rng, WORDS.length));
    const routeCycles = order.map((stage) => cycles[STAGE_NAMES.indexOf(stage)] as number[]);
    const eligible = pool.filter((i) => chainIsDistinct(i, routeCycles));
    if (eligible.length === 0) continue;
    const start = WORDS[eligible[randomInt(rng, eligible.length)] as number] as string;
    const route = order.map(toolNameOf);
    const mappings: Record<string, readonly string[]> = {};
    let id = `${generatorVersion}|${split}|${start}|${route.join(',')}`;
    STAGE_NAMES.forEach((stage, k) => {
      const next = cycles[k] as number[];
      mappings[toolNameOf(stage)] = Object.freeze(next.map((j) => WORDS[j] as string));
      id += `|${String.fromCharCode(...next)}`;
    });
    return Object.freeze({
      scenarioId: sha256Hex(id).slice(0, 16),
      generatorVersion,
      split,
      seed,
      start,
      route: Object.freeze(route),
      tokens: WORDS,
      mappings: Object.freeze(mappings),
    });
  }
}

const TOOL_NAMES: ReadonlyMap<string, string> = new Map(STAGE_NAMES.map((stage) => [stage, stageToolName(stage)]));
const toolNameOf = (stage: string): string => TOOL_NAMES.get(stage) as string;

/** Whether the chain from word `start` through the first `ALGORITHM.distinctChainStages` route stages never revisits a word. */
function chainIsDistinct(start: number, routeCycles: readonly (readonly number[])[]): boolean {
  const seen = [start];
  const stages = Math.min(ALGORITHM.distinctChainStages, routeCycles.length);
  let at = start;
  for (let k = 0; k < stages; k++) {
    at = (routeCycles[k] as readonly number[])[at] as number;
    if (seen.includes(at)) return false;
    seen.push(at);
  }
  return true;
}

const WORD_INDEX: ReadonlyMap<string, number> = new Map(WORDS.map((w, i) => [w, i]));

/**
 * What a stage returns for a token in a scenario (or a task, which carries the same `tokens` and
 * `mappings`), or `undefined` when the tool or the token is not part of the relay.
 *
 * @param world - a {@link Scenario} or a task
 * @param tool - a tool name, e.g. `stage_amber`
 * @param token - a token
 * @returns the output token, or `undefined`
 * @example
 * ```ts
 * const s = drawScenario('0', 'eval', 0);
 * stageOutput(s, s.route[0], s.start); // the first hop of the route
 * ```
 */
export function stageOutput(world: Pick<Scenario, 'tokens' | 'mappings'>, tool: string, token: string): string | undefined {
  requireArgument('stageOutput', 'world', world, 'object', 'a scenario');
  requireArgument('stageOutput', 'tool', tool, 'string');
  requireArgument('stageOutput', 'token', token, 'string');
  if (!Object.prototype.hasOwnProperty.call(world.mappings, tool)) return undefined;
  const i = world.tokens === WORDS ? WORD_INDEX.get(token) : world.tokens.indexOf(token);
  return i === undefined || i < 0 ? undefined : world.mappings[tool]?.[i];
}
