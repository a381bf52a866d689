import { describe, expect, it } from 'vitest';
import { abbreviateApart, distinctAbbreviations } from './distinct-abbreviations.js';

const L = 'You are a careful assistant. Answer the question using only the given context, prompt';

describe('distinctAbbreviations', () => {
  it('keeps where long texts differ, with their start, and short texts whole', () => {
    expect(distinctAbbreviations([`${L} v1`, `${L} v2`, 'short'], 16)).toEqual(['You are a car…v1', 'You are a car…v2', 'short']);
    // A difference in the middle: the start, the differing word, and the end as far as they fit.
    expect(distinctAbbreviations(['the quick brown fox jumps over version one of the lazy dog', 'the quick brown fox jumps over version two of the lazy dog'], 24)).toEqual(['the quick bro…one…zy dog', 'the quick bro…two…zy dog']);
    // Texts that differ from their first character keep their start.
    expect(distinctAbbreviations(['f00cc0aa198fad6caa576e207751dc268764b4030803f555115b5e8990fad67e', '1234'], 16)).toEqual(['f00cc0aa198fad6…', '1234']);
    expect(() => distinctAbbreviations(['a'], 3)).toThrow(RangeError);
  });

  it('never writes more than max characters', () => {
    let seed = 7;
    const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const text = (): string => Array.from({ length: Math.floor(next() * 60) }, () => 'ab c'[Math.floor(next() * 4)]).join('');
    for (let i = 0; i < 2000; i++) {
      const base = text();
      const max = 4 + Math.floor(next() * 40);
      for (const a of distinctAbbreviations([base + text(), base + text(), text() + base], max)) expect([...a].length).toBeLessThanOrEqual(max);
    }
  });
});

describe('abbreviateApart', () => {
  const first12 = (t: string): string => (t.length > 16 ? `${t.slice(0, 12)}…` : t);
  it('keeps the usual abbreviations when they tell the texts apart, else cuts where the texts differ', () => {
    expect(abbreviateApart(['alpha-long-value-1234', 'beta-long-value-1234'], first12, 16)).toEqual(['alpha-long-v…', 'beta-long-va…']);
    expect(abbreviateApart([`${L} v1`, `${L} v2`], first12, 16)).toEqual(['You are a car…v1', 'You are a car…v2']);
  });
});
