import type { ArmSpec } from './arm-spec.js';
import { armId } from './arm-id.js';
import { generate } from './generate.js';
import { generatorHash } from './generator-hash.js';
import { KNOBS } from './knobs.js';
import { referenceMessages } from './reference-policy.js';
import { contextTokens, promptTokens } from './tokens.js';
import { maxTurns, neededTurns } from './turns.js';
import { shown } from './internal/shown.js';
import { requireArgument } from 'poisson-core';

/** Mean and range of a sample. */
export interface SampleSummary {
  readonly n: number;
  readonly mean: number;
  readonly min: number;
  readonly max: number;
}

/**
 * For a control arm: how its prompt compares with its deeper partner's context at the partner's last
 * step (the partner's prompt plus every call but the last, with results), on the same seeds.
 */
export interface LengthMatch {
  readonly partner: string;
  /** o200k_base tokens of the partner's context at its last step. */
  readonly partnerTokens: SampleSummary;
  /** (control prompt tokens - partner context tokens) / partner context tokens, per seed. */
  readonly relativeDifference: SampleSummary;
}

/** An arm card: what an arm is and what it costs, as data. Frozen. */
export interface ArmCard {
  readonly method: 'arm card';
  readonly armId: string;
  readonly knob: string;
  /** The knob's one-sentence description, from its declaration. */
  readonly knobDescription: string;
  readonly level: number;
  readonly controlHistory: number | null;
  /** For a control arm, what it controls for ("a depth-1 task as long as depth 3"), else `null`. */
  readonly control: string | null;
  readonly neededTurns: number;
  readonly slack: number;
  readonly maxTurns: number;
  readonly strictness: string;
  readonly split: string;
  readonly generatorVersion: string;
  readonly generatorHash: string;
  /** The seeds the token statistics were measured on. */
  readonly seeds: { readonly first: number; readonly count: number };
  /** o200k_base prompt tokens over those seeds. */
  readonly promptTokens: SampleSummary;
  readonly lengthMatch: LengthMatch | null;
}

function summary(xs: readonly number[]): SampleSummary {
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const x of xs) {
    sum += x;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  return Object.freeze({ n: xs.length, mean: sum / xs.length, min, max });
}

/**
 * The card of an arm: knob, level, control, needed turns, max turns at a slack, and the mean and range of
 * its o200k_base prompt tokens over seeds `first .. first + count - 1`, with the generator version and
 * hash; a control arm's card adds its length match against its deeper partner on the same seeds.
 *
 * @param arm - the arm
 * @param options - `{ slack, seeds?: { first, count } }` (default seeds 0..199)
 * @returns the frozen {@link ArmCard}
 * @throws RangeError when the slack is not a non-negative integer, the seed count is not a positive integer, or the arm is not declared
 * @example
 * ```ts
 * armCard(d1h3, { slack: 4 }).lengthMatch?.relativeDifference.mean; // about -0.011
 * ```
 */
export function armCard(arm: ArmSpec, options: { readonly slack: number; readonly seeds?: { readonly first: number; readonly count: number } }): ArmCard {
  requireArgument('armCard', 'arm', arm, 'object', 'an ArmSpec object');
  requireArgument('armCard', 'options', options, 'object', 'an object with slack');
  const { slack } = options;
  const seeds = options.seeds ?? { first: 0, count: 200 };
  if (!Number.isInteger(seeds.count) || seeds.count < 1) throw new RangeError(`options.seeds.count must be a positive integer, got ${shown(seeds.count)}`);
  const budget = maxTurns(arm, slack);
  const decl = KNOBS[arm.knob];
  const partnerArm: ArmSpec | null = arm.controlHistory === null ? null : { ...arm, level: arm.controlHistory, controlHistory: null };
  const tokens: number[] = [];
  const partnerTokens: number[] = [];
  const rel: number[] = [];
  for (let s = seeds.first; s < seeds.first + seeds.count; s++) {
    const task = generate(arm, s);
    const n = promptTokens(task);
    tokens.push(n);
    if (partnerArm !== null) {
      const partner = generate(partnerArm, s);
      const m = contextTokens(partner.tools, referenceMessages(partner, partner.solution.length - task.solution.length));
      partnerTokens.push(m);
      rel.push((n - m) / m);
    }
  }
  return Object.freeze({
    method: 'arm card',
    armId: armId(arm),
    knob: arm.knob,
    knobDescription: decl.description,
    level: arm.level,
    controlHistory: arm.controlHistory,
    control: arm.controlHistory === null ? null : decl.describeControl({ level: arm.level, controlHistory: arm.controlHistory }),
    neededTurns: neededTurns(arm),
    slack,
    maxTurns: budget,
    strictness: arm.strictness,
    split: arm.split,
    generatorVersion: arm.generatorVersion,
    generatorHash: generatorHash(arm.generatorVersion),
    seeds: Object.freeze({ first: seeds.first, count: seeds.count }),
    promptTokens: summary(tokens),
    lengthMatch:
      partnerArm === null
        ? null
        : Object.freeze({ partner: armId(partnerArm), partnerTokens: summary(partnerTokens), relativeDifference: summary(rel) }),
  });
}

const pct = (x: number): string => `${(100 * x).toFixed(2)}%`;

/**
 * An arm card as Markdown: a heading with the arm id and a two-column table.
 *
 * @param card - from {@link armCard}
 * @returns the Markdown, ending in a newline
 * @example
 * ```ts
 * armCardMarkdown(armCard(d3, { slack: 4 })).split('\n')[0]; // '### depth:d3'
 * ```
 */
export function armCardMarkdown(card: ArmCard): string {
  requireArgument('armCardMarkdown', 'card', card, 'object', 'the card armCard returns');
  const rows: [string, string][] = [
    ['knob', `${card.knob} (${card.knobDescription})`],
    ['level', String(card.level)],
    ['control', card.control === null ? 'no (treatment arm)' : `yes: ${card.control}`],
    ['needed turns', String(card.neededTurns)],
    [`max turns at slack ${card.slack}`, String(card.maxTurns)],
    ['strictness / split', `${card.strictness} / ${card.split}`],
    [
      'prompt tokens (o200k_base)',
      `mean ${card.promptTokens.mean.toFixed(1)}, range ${card.promptTokens.min}–${card.promptTokens.max} over seeds ${card.seeds.first}–${card.seeds.first + card.seeds.count - 1}`,
    ],
  ];
  if (card.lengthMatch !== null) {
    const lm = card.lengthMatch;
    rows.push([
      `length match against ${lm.partner} at its last step`,
      `${lm.partner} context mean ${lm.partnerTokens.mean.toFixed(1)} tokens; difference mean ${pct(lm.relativeDifference.mean)}, range ${pct(lm.relativeDifference.min)} to ${pct(lm.relativeDifference.max)}`,
    ]);
  }
  rows.push(['generator', `version ${card.generatorVersion}, hash \`${card.generatorHash}\``]);
  return `### ${card.armId}\n\n| | |\n| --- | --- |\n${rows.map(([k, v]) => `| ${k} | ${v.replaceAll('|', '\\|')} |`).join('\n')}\n`;
}
