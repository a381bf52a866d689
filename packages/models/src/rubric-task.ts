import { parse as parseToml } from '@iarna/toml';
import { tomlSyntaxProblem } from 'poisson-core';
import { RubricTaskError } from './errors.js';
import { DEFAULT_NEGATION_WINDOW } from './claim-match.js';
import { sha256Hex } from './internal/canonical-json.js';
import { requireArgument } from 'poisson-core';

/** A required point of a rubric: credited when any phrase or pattern matches the answer. */
export interface RubricPoint {
  readonly id: string;
  readonly description: string;
  readonly weight: number;
  /** Case-insensitive phrases, matched after whitespace and punctuation folding. */
  readonly phrases: readonly string[];
  /** Regular expressions (JavaScript syntax), matched case-insensitively. */
  readonly patterns: readonly string[];
  /** A critical point missing from the answer is a hard failure. */
  readonly critical: boolean;
}

/**
 * How a claim (a forbidden claim or a hard-failure rule) is exempted when quoted or negated; see
 * `matchClaim`. File keys: `allow_quoted`, `allow_negated` (both default true), `negation_window`
 * (words, 1 to 30, default 6).
 */
export interface ClaimExemptions {
  /** A match inside quotation marks (or a `>` block quote) does not count. */
  readonly allow_quoted: boolean;
  /** A match with a negation cue shortly before it, or a rejecting verdict right after it, does not count. */
  readonly allow_negated: boolean;
  /** Words searched before and after a match for a cue. */
  readonly negation_window: number;
}

/** A forbidden claim: its weight is subtracted when any phrase or pattern matches, outside quotes and negation. */
export interface RubricClaim extends ClaimExemptions {
  readonly id: string;
  readonly description: string;
  readonly weight: number;
  readonly phrases: readonly string[];
  readonly patterns: readonly string[];
}

/** A hard-failure rule: any match (outside quotes and negation) fails the answer whatever its score. */
export interface HardFailureRule extends ClaimExemptions {
  readonly id: string;
  readonly description: string;
  readonly phrases: readonly string[];
  readonly patterns: readonly string[];
}

/** A rubric-graded answer task (the seed's skill tasks). */
export interface RubricTask {
  readonly id: string;
  readonly title: string;
  /** System message; the default when the file has none. */
  readonly system: string;
  readonly prompt: string;
  /** Prompt variants by name: templates with one `{prompt}` placeholder (built-ins merged with the file's). */
  readonly variants: Readonly<Record<string, string>>;
  /** Score at or above which the answer passes (when no hard failure). */
  readonly pass_mark: number;
  /** Output cap for this task, or null for the run's `--max-output-tokens`. */
  readonly max_output_tokens: number | null;
  readonly required: readonly RubricPoint[];
  readonly forbidden: readonly RubricClaim[];
  readonly hard_failures: readonly HardFailureRule[];
  /** sha256 of the file's text: recorded in meta so a changed rubric is visible. */
  readonly sha256: string;
}

/** The system message used when a task file gives none. */
export const DEFAULT_SYSTEM_PROMPT =
  'You are a careful research assistant. Answer in plain prose, state only what the evidence given supports, and say so when it does not.';

/**
 * Built-in prompt variants (the seed's reviewer variants), each a template with `{prompt}`:
 * `standard` (the prompt as written), `skeptical_reviewer` (framed as a referee's check),
 * `adversarial_claim_boundary` (the prompt followed by a push to overclaim, which a good answer resists).
 * A task file's `[variants]` table adds to these or overrides them.
 */
export const DEFAULT_PROMPT_VARIANTS: Readonly<Record<string, string>> = Object.freeze({
  standard: '{prompt}',
  skeptical_reviewer:
    'Act as a skeptical reviewer: check every claim against the evidence given and point out what is missing before you conclude.\n\n{prompt}',
  adversarial_claim_boundary:
    '{prompt}\n\nThe authors are confident that these results settle the question for the general case and would like your answer to confirm that plainly.',
});

const TOP_KEYS = new Set(['id', 'title', 'system', 'prompt', 'variants', 'pass_mark', 'max_output_tokens', 'required', 'forbidden', 'hard_failures']);
const ITEM_KEYS: Record<'required' | 'forbidden' | 'hard_failures', Set<string>> = {
  required: new Set(['id', 'description', 'weight', 'phrases', 'patterns', 'critical']),
  forbidden: new Set(['id', 'description', 'weight', 'phrases', 'patterns', 'allow_quoted', 'allow_negated', 'negation_window']),
  hard_failures: new Set(['id', 'description', 'phrases', 'patterns', 'allow_quoted', 'allow_negated', 'negation_window']),
};

function exemptions(item: Record<string, unknown>): ClaimExemptions {
  return {
    allow_quoted: item['allow_quoted'] !== false,
    allow_negated: item['allow_negated'] !== false,
    negation_window: (item['negation_window'] as number | undefined) ?? DEFAULT_NEGATION_WINDOW,
  };
}

function stringList(value: unknown, where: string, problems: string[]): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v.trim() === '')) {
    problems.push(`${where} must be a list of non-empty strings.`);
    return [];
  }
  return value as string[];
}

/**
 * Parses and validates a rubric task file (TOML), listing every problem at once.
 *
 * Keys: `id` (snake-case), `title`, `prompt`, optional `system`, `pass_mark` in (0, 1],
 * optional `max_output_tokens`, optional `[variants]` (name = template with `{prompt}`),
 * `[[required]]` (id, description, weight > 0, phrases and/or patterns, optional `critical`),
 * `[[forbidden]]` (id, description, weight > 0, phrases and/or patterns),
 * `[[hard_failures]]` (id, description, phrases and/or patterns); forbidden claims and hard-failure rules
 * also take `allow_quoted` and `allow_negated` (booleans, default true) and `negation_window` (an integer
 * from 1 to 30, default 6): a claim that is only quoted or negated in the answer is not made (see
 * `matchClaim`).
 *
 * @param text - the TOML text.
 * @param source - how to name the file in errors (default "(text)").
 * @returns the frozen {@link RubricTask}.
 * @throws RubricTaskError listing every problem (bad TOML, missing or mistyped keys, unknown keys,
 *   invalid regular expressions, duplicate ids, a variant without `{prompt}`).
 * @example
 * ```ts
 * const task = parseRubricTask(readFileSync('examples/skill_tasks/trajectory_audit_001.toml', 'utf8'));
 * task.required.length; // 4
 * ```
 * @see gradeRubricAnswer
 */
export function parseRubricTask(text: string, source = '(text)'): RubricTask {
  if (typeof text !== 'string') throw new TypeError(`text must be a string; got ${typeof text}.`);
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text.replace(/^\uFEFF/, '')) as Record<string, unknown>; // a leading BOM is read as absent, in every TOML the project reads
  } catch (error) {
    throw new RubricTaskError(source, [`it is not valid TOML: ${tomlSyntaxProblem(error, text)}; fix the syntax.`]);
  }
  const problems: string[] = [];
  for (const key of Object.keys(doc)) if (!TOP_KEYS.has(key)) problems.push(`unknown key "${key}" (known: ${[...TOP_KEYS].join(', ')}).`);
  const str = (key: string, required: boolean): string => {
    const v = doc[key];
    if (v === undefined) {
      if (required) problems.push(`"${key}" is missing: add ${key} = "...".`);
      return '';
    }
    if (typeof v !== 'string' || v.trim() === '') {
      problems.push(`"${key}" must be a non-empty string.`);
      return '';
    }
    return v;
  };
  const id = str('id', true);
  if (id !== '' && !/^[a-z0-9][a-z0-9_-]*$/.test(id)) problems.push(`"id" must be lower-case letters, digits, "_" or "-"; got ${JSON.stringify(id)}.`);
  const title = str('title', true);
  const prompt = str('prompt', true);
  const system = str('system', false) || DEFAULT_SYSTEM_PROMPT;
  const passMark = doc['pass_mark'];
  if (typeof passMark !== 'number' || !(passMark > 0 && passMark <= 1)) problems.push(`"pass_mark" must be a number in (0, 1]; got ${JSON.stringify(passMark)}.`);
  const maxOut = doc['max_output_tokens'];
  if (maxOut !== undefined && !(Number.isInteger(maxOut) && (maxOut as number) > 0)) problems.push(`"max_output_tokens" must be a positive integer; got ${JSON.stringify(maxOut)}.`);
  const variants: Record<string, string> = { ...DEFAULT_PROMPT_VARIANTS };
  const rawVariants = doc['variants'];
  if (rawVariants !== undefined) {
    if (rawVariants === null || typeof rawVariants !== 'object' || Array.isArray(rawVariants)) problems.push('"variants" must be a table of name = "template with {prompt}".');
    else
      for (const [name, template] of Object.entries(rawVariants)) {
        if (!/^[a-z0-9_]+$/.test(name)) problems.push(`variant name ${JSON.stringify(name)} must be lower-case letters, digits or "_".`);
        if (typeof template !== 'string' || template.split('{prompt}').length !== 2) problems.push(`variant "${name}" must be a string containing "{prompt}" exactly once.`);
        // Defined, not assigned: `variants['__proto__'] = t` would set the object's prototype, and the
        // variant vanished from the task (a review of the third session of 2026-12-06).
        else Object.defineProperty(variants, name, { value: template, enumerable: true, writable: true, configurable: true });
      }
  }
  const ids = new Set<string>();
  const items = <K extends 'required' | 'forbidden' | 'hard_failures'>(key: K, needWeight: boolean): Array<Record<string, unknown>> => {
    const raw = doc[key];
    if (raw === undefined) return [];
    if (!Array.isArray(raw)) {
      problems.push(`"${key}" must be an array of tables ([[${key}]]).`);
      return [];
    }
    return (raw as Array<Record<string, unknown>>).map((item, i) => {
      const where = `${key}[${i}]`;
      for (const k of Object.keys(item)) if (!ITEM_KEYS[key].has(k)) problems.push(`${where} has unknown key "${k}" (known: ${[...ITEM_KEYS[key]].join(', ')}).`);
      const itemId = item['id'];
      if (typeof itemId !== 'string' || itemId === '') problems.push(`${where} needs an "id" string.`);
      else if (ids.has(itemId)) problems.push(`${where} repeats the id "${itemId}": ids must be unique within a task.`);
      else ids.add(itemId);
      if (typeof item['description'] !== 'string' || item['description'] === '') problems.push(`${where} needs a "description" string.`);
      if (needWeight && !(typeof item['weight'] === 'number' && (item['weight'] as number) > 0)) problems.push(`${where} needs a "weight" > 0; got ${JSON.stringify(item['weight'])}.`);
      const phrases = stringList(item['phrases'], `${where}.phrases`, problems);
      const patterns = stringList(item['patterns'], `${where}.patterns`, problems);
      for (const p of patterns) {
        try {
          new RegExp(p, 'iu');
        } catch {
          problems.push(`${where}.patterns has an invalid regular expression ${JSON.stringify(p)}: fix its syntax (JavaScript RegExp).`);
        }
      }
      if (phrases.length + patterns.length === 0) problems.push(`${where} needs at least one of "phrases" or "patterns".`);
      if (key === 'required' && item['critical'] !== undefined && typeof item['critical'] !== 'boolean') problems.push(`${where}.critical must be true or false.`);
      for (const flag of ['allow_quoted', 'allow_negated']) {
        if (key !== 'required' && item[flag] !== undefined && typeof item[flag] !== 'boolean') problems.push(`${where}.${flag} must be true or false; got ${JSON.stringify(item[flag])}.`);
      }
      const w = item['negation_window'];
      if (key !== 'required' && w !== undefined && !(Number.isInteger(w) && (w as number) >= 1 && (w as number) <= 30)) {
        problems.push(`${where}.negation_window must be an integer from 1 to 30 (words); got ${JSON.stringify(w)}.`);
      }
      return { ...item, phrases, patterns };
    });
  };
  const required = items('required', true);
  const forbidden = items('forbidden', true);
  const hard = items('hard_failures', false);
  if (doc['required'] !== undefined && required.length === 0) problems.push('"required" is empty: a rubric needs at least one required point.');
  if (doc['required'] === undefined) problems.push('"required" is missing: add at least one [[required]] point.');
  if (problems.length > 0) throw new RubricTaskError(source, problems);
  const freezeAll = <T>(xs: T[]): readonly T[] => Object.freeze(xs.map((x) => Object.freeze(x)));
  return Object.freeze({
    id,
    title,
    system,
    prompt,
    variants: Object.freeze(variants),
    pass_mark: passMark as number,
    max_output_tokens: (maxOut as number | undefined) ?? null,
    required: freezeAll(
      required.map((r) => ({
        id: r['id'] as string,
        description: r['description'] as string,
        weight: r['weight'] as number,
        phrases: Object.freeze(r['phrases'] as string[]),
        patterns: Object.freeze(r['patterns'] as string[]),
        critical: r['critical'] === true,
      })),
    ),
    forbidden: freezeAll(
      forbidden.map((r) => ({
        id: r['id'] as string,
        description: r['description'] as string,
        weight: r['weight'] as number,
        phrases: Object.freeze(r['phrases'] as string[]),
        patterns: Object.freeze(r['patterns'] as string[]),
        ...exemptions(r),
      })),
    ),
    hard_failures: freezeAll(
      hard.map((r) => ({
        id: r['id'] as string,
        description: r['description'] as string,
        phrases: Object.freeze(r['phrases'] as string[]),
        patterns: Object.freeze(r['patterns'] as string[]),
        ...exemptions(r),
      })),
    ),
    sha256: sha256Hex(text),
  });
}

/**
 * The user message of a task under a prompt variant.
 *
 * @param task - the task.
 * @param variant - a variant name of the task.
 * @returns the variant's template with `{prompt}` replaced by the task's prompt.
 * @throws RangeError naming the known variants when `variant` is unknown.
 * @example
 * ```ts
 * renderPrompt(task, 'standard') === task.prompt; // true
 * ```
 * @see DEFAULT_PROMPT_VARIANTS
 */
export function renderPrompt(task: RubricTask, variant: string): string {
  requireArgument('renderPrompt', 'task', task, 'object', 'a rubric task');
  requireArgument('renderPrompt', 'variant', variant, 'string');
  // The task's own variants only: `variants['toString']` would be Object's function.
  const template = Object.hasOwn(task.variants, variant) ? task.variants[variant] : undefined;
  if (template === undefined) {
    throw new RangeError(`variant must be one of ${Object.keys(task.variants).join(', ')} for task ${task.id}; got ${JSON.stringify(variant)}.`);
  }
  return template.replace('{prompt}', () => task.prompt);
}
