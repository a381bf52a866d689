import { describe, expect, it } from 'vitest';
import { armCard, armCardMarkdown } from './arm-card.js';
import { generatorHash } from './generator-hash.js';
import { D1, D1H3, D3 } from './__fixtures__/arms.js';

describe('armCard', () => {
  it('states needed and max turns, prompt-token statistics and the generator', () => {
    const card = armCard(D3, { slack: 4, seeds: { first: 0, count: 50 } });
    expect(card).toMatchObject({
      method: 'arm card',
      armId: 'depth:d3',
      knob: 'depth',
      level: 3,
      controlHistory: null,
      control: null,
      neededTurns: 4,
      slack: 4,
      maxTurns: 8,
      generatorVersion: '0',
      generatorHash: generatorHash('0'),
      seeds: { first: 0, count: 50 },
      lengthMatch: null,
    });
    expect(card.promptTokens.n).toBe(50);
    expect(card.promptTokens.min).toBeLessThanOrEqual(card.promptTokens.mean);
    expect(card.promptTokens.mean).toBeLessThanOrEqual(card.promptTokens.max);
    expect(JSON.parse(JSON.stringify(card))).toEqual(card);
  });

  it("shows a control's length match against its partner's last step", () => {
    const card = armCard(D1H3, { slack: 4, seeds: { first: 0, count: 100 } });
    expect(card.control).toBe('a depth-1 task as long as depth 3');
    expect(card.neededTurns).toBe(2);
    expect(card.lengthMatch?.partner).toBe('depth:d3');
    expect(Math.abs(card.lengthMatch?.relativeDifference.mean ?? 1)).toBeLessThan(0.02);
    // The d1 treatment is shorter than the control by the two history calls (about 34 tokens).
    expect(card.promptTokens.mean - armCard(D1, { slack: 4, seeds: { first: 0, count: 100 } }).promptTokens.mean).toBeGreaterThan(25);
  });

  it('renders Markdown with every figure', () => {
    const card = armCard(D1H3, { slack: 4, seeds: { first: 0, count: 20 } });
    const md = armCardMarkdown(card);
    expect(md.startsWith('### depth:d1+h3\n\n| | |\n| --- | --- |\n')).toBe(true);
    expect(md).toContain('| control | yes: a depth-1 task as long as depth 3 |');
    expect(md).toContain('| needed turns | 2 |');
    expect(md).toContain('| max turns at slack 4 | 6 |');
    expect(md).toContain(`mean ${card.promptTokens.mean.toFixed(1)}, range ${card.promptTokens.min}–${card.promptTokens.max} over seeds 0–19`);
    expect(md).toContain('length match against depth:d3 at its last step');
    expect(md).toContain(`hash \`${generatorHash('0')}\``);
  });

  it('refuses a bad seed count', () => {
    expect(() => armCard(D1, { slack: 4, seeds: { first: 0, count: 0 } })).toThrow('options.seeds.count must be a positive integer, got 0');
  });
});
