import { describe, expect, it } from 'vitest';
import { DEFAULT_NEGATION_WINDOW, matchClaim, type ClaimMatchRule } from './claim-match.js';

const rule = (patterns: string[], extra: Partial<ClaimMatchRule> = {}): ClaimMatchRule => ({
  phrases: [],
  patterns,
  allow_quoted: true,
  allow_negated: true,
  negation_window: DEFAULT_NEGATION_WINDOW,
  ...extra,
});
const SIG = rule(['(is|are) significantly better']);
const SOTA = rule(['state[- ]of[- ]the[- ]art']);
const made = (r: ClaimMatchRule, text: string): boolean => matchClaim(r, text).made;

describe('matchClaim: a quoted or negated claim is not made', () => {
  it('makes a plainly stated claim, case- and typography-insensitively', () => {
    expect(matchClaim(SIG, 'Model A IS significantly   better than B.')).toEqual({ made: true, exempted: [] });
    expect(made(SOTA, 'It is a state\u2011of\u2011the\u2011art result.')).toBe(true); // non-breaking hyphens fold to "-"
  });

  it('exempts a match inside quotation marks: straight, typographic, single, backtick and block quotes', () => {
    for (const text of [
      'The draft sentence "Model A is significantly better than model B." is not what the data show.',
      'The draft sentence \u201cModel A is significantly better than model B\u201d overreaches.',
      "The line 'model A is significantly better' must go.",
      'Delete `A is significantly better` from the abstract.',
      'The abstract says:\n> Model A is significantly better than model B.\nThat needs a paired test.',
    ]) {
      expect(matchClaim(SIG, text), text).toEqual({ made: false, exempted: ['quoted'] });
    }
    // A period inside the quote does not end the sentence; an apostrophe is not a quote.
    expect(made(SIG, "Model A's score is significantly better, the authors' draft says.")).toBe(true);
    // With allow_quoted = false a quoted claim counts.
    expect(made({ ...SIG, allow_quoted: false }, 'The draft says "A is significantly better".')).toBe(true);
  });

  it('exempts a match with a negation cue within the window before it, in the same clause', () => {
    for (const text of [
      'It is not a state-of-the-art result.',
      'This is certainly not state-of-the-art evidence.',
      "It isn't state of the art.",
      'Nothing here makes it state of the art.',
      'It would be unwarranted to call it state of the art.',
      'It is far from state of the art.',
      'The question is whether it is state of the art.',
    ]) {
      expect(matchClaim(SOTA, text), text).toEqual({ made: false, exempted: ['negated'] });
    }
    // A rejecting verdict right after the claim.
    expect(made(SIG, 'Saying that model A is significantly better is not supported by one run.')).toBe(false);
    expect(made(rule(['two-proportion z-test']), "A two-proportion z-test isn't the right analysis.")).toBe(false);
    // With allow_negated = false a negated claim counts.
    expect(made({ ...SOTA, allow_negated: false }, 'It is not state of the art.')).toBe(true);
  });

  it('does not let a negation reach across sentences, clauses, or beyond the window', () => {
    expect(made(SOTA, 'No. It is state of the art.')).toBe(true); // another sentence
    expect(made(SOTA, 'It is not significant, but it is state of the art.')).toBe(true); // another clause
    expect(made(SOTA, 'It is not significant and it is state of the art.')).toBe(true);
    expect(made(SOTA, 'It is not one bit less than state of the art.')).toBe(false); // 5 words back: inside the default window
    const far = 'Not that anyone asked about the model here, it is state of the art.';
    expect(made(SOTA, far)).toBe(true);
    expect(made({ ...SOTA, negation_window: 2 }, 'It is not at all state of the art.')).toBe(true); // "not" is 3 words back
    expect(made({ ...SOTA, negation_window: 3 }, 'It is not at all state of the art.')).toBe(false);
  });

  it('does not treat emphasis or double negation as negation', () => {
    expect(made(SIG, 'Not only is it fast: model A is significantly better.')).toBe(true);
    expect(made(SIG, 'There is no doubt model A is significantly better.')).toBe(true);
    expect(made(SIG, 'No one can deny model A is significantly better.')).toBe(true);
  });

  it('makes the claim when one occurrence counts, even if another is exempt; phrases work like patterns', () => {
    const text = 'The draft says "A is significantly better". I agree: A is significantly better.';
    expect(matchClaim(SIG, text)).toEqual({ made: true, exempted: ['quoted'] });
    const phrase: ClaimMatchRule = { ...SIG, patterns: [], phrases: ['All orders were executed'] };
    expect(made(phrase, 'all  orders were executed.')).toBe(true);
    expect(made(phrase, 'Not all orders were executed.')).toBe(false);
  });
});

describe('matchClaim: counting cues', () => {
  it('an even number of cues is a double negation; neither ... nor counts once', () => {
    expect(made(SOTA, 'It would not be wrong to call it state of the art.')).toBe(true);
    expect(made(SOTA, 'It is neither significant nor state of the art.')).toBe(false);
    expect(made(SOTA, 'There is no question it is state of the art.')).toBe(true);
    expect(made(SOTA, 'It is not state of the art.')).toBe(false);
  });
});
