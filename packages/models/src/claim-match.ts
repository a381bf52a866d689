import { requireArgument } from 'poisson-core';
/**
 * Matching forbidden claims and hard-failure rules so that quoting or negating a claim does not count as
 * making it. One concept: where in an answer a claim is asserted.
 */

/** How a claim rule is matched; the rubric's `[[forbidden]]` and `[[hard_failures]]` items carry these. */
export interface ClaimMatchRule {
  /** Case-insensitive phrases, matched after folding (NFKC, lower case, typographic quotes and dashes made plain). */
  readonly phrases: readonly string[];
  /** Regular expressions (JavaScript syntax), matched case-insensitively on each folded sentence. */
  readonly patterns: readonly string[];
  /** A match inside quotation marks does not count (default true). */
  readonly allow_quoted: boolean;
  /** A match with a negation cue shortly before it, or a rejecting verdict right after it, does not count (default true). */
  readonly allow_negated: boolean;
  /** How many words before (and after) a match are searched for a cue (default {@link DEFAULT_NEGATION_WINDOW}). */
  readonly negation_window: number;
}

/** Words searched before a match by default. */
export const DEFAULT_NEGATION_WINDOW = 6;

/**
 * Negation cues: a word from this list (or any word ending in `n't`: isn't, doesn't, can't, won't, ...)
 * among the `negation_window` words before a match, in the same clause, negates the match. Besides plain
 * negations it holds words that reject or merely consider a claim (`unsupported`, `wrong`, `avoid`,
 * `whether`, `if`, ...). Cues are counted: an even count is a double negation and asserts the claim
 * ("no doubt", "no one can deny", "it is not wrong to say"); `neither ... nor` counts once.
 */
export const NEGATION_CUES: readonly string[] = Object.freeze([
  'not', 'no', 'never', 'nor', 'neither', 'none', 'nothing', 'nobody', 'cannot', 'without', 'hardly',
  'unsupported', 'unwarranted', 'unjustified', 'unfounded', 'unproven', 'unlikely', 'premature',
  'lack', 'lacks', 'lacking', 'fail', 'fails', 'failed', 'avoid', 'avoids', 'refrain', 'against',
  'reject', 'rejects', 'refute', 'refutes', 'drop', 'remove', 'delete', 'retract', 'doubt', 'doubtful', 'questionable',
  'deny', 'denies', 'denied', 'dispute', 'disputes', 'disputed',
  'false', 'wrong', 'incorrect', 'misleading', 'overclaim', 'overclaims', 'overclaiming', 'overstates', 'overstating',
  'whether', 'if',
]);

/** Two-word negation cues, searched in the same window (each counts as one cue). */
export const NEGATION_PHRASES: readonly string[] = Object.freeze(['rather than', 'instead of', 'far from', 'too early']);

/**
 * Words that, right after a cue, make it emphasis rather than negation: `not only`, `not just`,
 * `not least`, `no question`, `without question`, `no wonder`.
 */
export const NON_NEGATING_FOLLOWERS: readonly string[] = Object.freeze(['only', 'just', 'merely', 'least', 'question', 'wonder']);

/**
 * Verdicts that reject a claim when they follow it within the window in the same sentence, after a copula
 * (`is`, `are`, `was`, `were`, `would be`, `remains`): "the claim that A is significantly better is not
 * supported".
 */
export const REJECTING_VERDICTS: readonly string[] = Object.freeze([
  'not supported', 'unsupported', 'not justified', 'unjustified', 'unwarranted', 'not warranted', 'not established',
  'an overclaim', 'overclaiming', 'an overstatement', 'not true', 'untrue', 'false', 'wrong', 'incorrect', 'misleading', 'premature',
]);

const CUES = new Set(NEGATION_CUES);
const FOLLOWERS = new Set(NON_NEGATING_FOLLOWERS);
/**
 * Approvals that reject a claim when a negated copula precedes them right after it: "a two-proportion
 * z-test is not the right analysis", "... isn't justified", "... does not hold".
 */
export const NEGATED_APPROVALS: readonly string[] = Object.freeze([
  'right', 'appropriate', 'correct', 'valid', 'suitable', 'justified', 'warranted', 'supported', 'true', 'accurate', 'hold', 'follow', 'enough', 'sufficient',
]);

const alternatives = (xs: readonly string[]): string => xs.map((v) => v.replace(/ /g, '\\s+')).join('|');
const VERDICT_SOURCE =
  `^\\W*(?:[\\w'-]+\\W+){0,WINDOW}?(?:` +
  `(?:is|are|was|were|would be|remains?|seems?)\\s+(?:(?:simply|clearly|plainly|therefore|thus|still|also)\\s+)?(?:${alternatives(REJECTING_VERDICTS)})` +
  `|(?:is|are|was|were|would|does|do|did)(?:\\s+not|n't)\\s+(?:be\\s+)?(?:the\\s+|a\\s+)?(?:${alternatives(NEGATED_APPROVALS)})` +
  `)\\b`;

/**
 * Folds text for claim matching: NFKC, lower case, typographic quotes to `"` and `'`, dashes to `-`,
 * runs of spaces to one, line breaks kept (a line is a sentence boundary).
 */
function foldForClaims(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u201b\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u00ab\u00bb\u2033]/g, '"')
    .replace(/[\u2010-\u2015]/g, '-')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n[\s]*/g, '\n')
    .trim();
}

/**
 * Quoted spans of a folded text, as [start, end) pairs (quotes included): double quotes paired in order
 * within a line (at most 600 characters apart);
 * single quotes that open after a space or bracket and close before a space or punctuation (so the
 * apostrophes of "model's" and "isn't" are not quotes); backtick spans; and Markdown block quotes
 * (lines starting with `>`).
 */
function quotedSpans(text: string): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  for (const re of [/"[^"\n]{0,600}"/g, /(?<=^|[\s([{])'(?=\S)[^'\n]*?(?<=\S)'(?=$|[\s.,;:!?)\]}])/gm, /`[^`\n]*`/g, /^>.*$/gm]) {
    for (const m of text.matchAll(re)) spans.push([m.index, m.index + m[0].length]);
  }
  return spans;
}

/** Sentences of a folded text as [start, end) pairs: ends at `.`, `!` or `?` followed by a space, and at line breaks, never inside a quoted span. */
function sentences(text: string, quotes: ReadonlyArray<readonly [number, number]>): Array<readonly [number, number]> {
  const inQuote = (i: number): boolean => quotes.some(([s, e]) => i > s && i < e - 1);
  const out: Array<readonly [number, number]> = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const end = c === '\n' || ((c === '.' || c === '!' || c === '?') && (i + 1 === text.length || /\s/.test(text[i + 1] as string)));
    if (end && !inQuote(i)) {
      out.push([start, i + 1]);
      start = i + 1;
    }
  }
  if (start < text.length) out.push([start, text.length]);
  return out;
}

/** The clause before a position: back to the last `,;:()` or dash, or a word that starts a new clause. */
const CLAUSE_BREAK = /[,;:()\u2014]|\s-\s|\b(?:but|however|although|though|yet|whereas|while|and|so|therefore|thus|hence|because|since)\b/g;

function negatedBefore(before: string, window: number): boolean {
  let clauseStart = 0;
  for (const m of before.matchAll(CLAUSE_BREAK)) clauseStart = m.index + m[0].length;
  const clause = before.slice(clauseStart);
  const words = clause.match(/[a-z]+(?:'[a-z]+)*/g) ?? [];
  const tail = words.slice(-window);
  let cues = 0;
  for (let i = 0; i < tail.length; i++) {
    const w = tail[i] as string;
    if (!(CUES.has(w) || w.endsWith("n't"))) continue;
    const next = tail[i + 1];
    if (next !== undefined && FOLLOWERS.has(next)) continue;
    if (w === 'neither' && tail.slice(i + 1).includes('nor')) continue;
    cues += 1;
  }
  const joined = ` ${tail.join(' ')} `;
  for (const p of NEGATION_PHRASES) if (joined.includes(` ${p} `)) cues += 1;
  return cues % 2 === 1;
}

function rejectedAfter(after: string, window: number): boolean {
  return new RegExp(VERDICT_SOURCE.replace('WINDOW', String(window))).test(after);
}

/** Why a match was not counted, or `null` when it counts. */
export type ClaimExemption = 'quoted' | 'negated' | null;

/** The outcome of matching one rule against an answer. */
export interface ClaimMatch {
  /** Some match counts: the claim is made. */
  readonly made: boolean;
  /** Matches found but exempted, by reason (empty when none). */
  readonly exempted: readonly ('quoted' | 'negated')[];
}

/**
 * Matches a claim rule against an answer sentence by sentence. A phrase or pattern match counts unless
 * (with `allow_quoted`) it lies inside a quoted span, or (with `allow_negated`) the same clause has a
 * negation cue ({@link NEGATION_CUES}, {@link NEGATION_PHRASES}, any `n't` word; not before
 * {@link NON_NEGATING_FOLLOWERS}; an odd number of them) within `negation_window` words before it, or the same sentence has a
 * copula and a rejecting verdict ({@link REJECTING_VERDICTS}), or a negated copula and an approval
 * ({@link NEGATED_APPROVALS}: "is not the right analysis"), within `negation_window` words after it.
 * The claim is made when any match counts.
 *
 * @param rule - phrases, patterns and the exemption settings.
 * @param answer - the answer text (folded: NFKC, lower case, typographic quotes and dashes made plain).
 * @returns `{ made, exempted }`.
 * @example
 * ```ts
 * const rule = { phrases: [], patterns: ['significantly better'], allow_quoted: true, allow_negated: true, negation_window: 6 };
 * matchClaim(rule, 'The draft sentence "A is significantly better" is not supported.').made; // false
 * matchClaim(rule, 'It is not significantly better.').made; // false
 * matchClaim(rule, 'A is significantly better.').made; // true
 * ```
 * @see gradeRubricAnswer
 */
export function matchClaim(rule: ClaimMatchRule, answer: string): ClaimMatch {
  requireArgument('matchClaim', 'rule', rule, 'object');
  requireArgument('matchClaim', 'answer', answer, 'string');
  const text = foldForClaims(answer);
  const quotes = quotedSpans(text);
  const exempted = new Set<'quoted' | 'negated'>();
  const regexes = [
    ...rule.phrases.map((p) => new RegExp(foldForClaims(p).replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'), 'giu')),
    ...rule.patterns.map((p) => new RegExp(p, 'giu')),
  ];
  for (const [s, e] of sentences(text, quotes)) {
    const sentence = text.slice(s, e);
    for (const re of regexes) {
      re.lastIndex = 0;
      for (const m of sentence.matchAll(re)) {
        if (m[0].length === 0) continue;
        const start = s + m.index;
        const end = start + m[0].length;
        if (rule.allow_quoted && quotes.some(([qs, qe]) => start >= qs && end <= qe)) {
          exempted.add('quoted');
          continue;
        }
        if (rule.allow_negated && (negatedBefore(text.slice(s, start), rule.negation_window) || rejectedAfter(text.slice(end, e), rule.negation_window))) {
          exempted.add('negated');
          continue;
        }
        return Object.freeze({ made: true, exempted: Object.freeze([...exempted]) });
      }
    }
  }
  return Object.freeze({ made: false, exempted: Object.freeze([...exempted]) });
}
