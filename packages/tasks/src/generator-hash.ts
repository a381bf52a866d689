import { GENERATOR_VERSIONS } from './arm-spec.js';
import { canonicalJson } from './internal/canonical-json.js';
import { sha256Hex } from './internal/sha256.js';
import { ALGORITHM, EMPTY_SLOT, OTHER_SLOTS, SPLIT_RESIDUES, STAGE_NAMES, TEMPLATES, WORDS } from './internal/relay-data.js';
import { KNOBS } from './knobs.js';
import { GRADER_RULES } from './grader.js';

/**
 * The generator's identity as a plain value: its version and everything that decides a task (word list,
 * stage names, templates, split rule, algorithm parameters, every knob's declared levels, shapes and
 * controls, the grader's rules). {@link generatorHash} is the sha256 of its canonical JSON.
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
 * generatorHash('0'); // the value pinned in generator.test.ts
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
