import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every level, writes no whitespace and keeps arrays in order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,1]},"b":1}');
  });

  it('drops undefined object members, as JSON.stringify does', () => {
    expect(canonicalJson({ a: undefined, b: 2 })).toBe('{"b":2}');
  });

  // The two copies this replaces disagreed: poisson-tasks' threw on undefined inside an array,
  // poisson-models' wrote null. The text is hashed (generator hash, cache keys), and null would make
  // [undefined] and [null] hash alike: refused.
  it('refuses undefined inside an array and values JSON has no text for', () => {
    expect(() => canonicalJson([1, undefined])).toThrow(TypeError);
    expect(() => canonicalJson(() => 1)).toThrow(/cannot serialize/);
  });

  it('gives the text JSON.stringify gives for a value already in canonical order', () => {
    const v = { a: [1, 'two', { b: null, c: true }], d: -0.5 };
    expect(canonicalJson(v)).toBe(JSON.stringify(v));
  });
});
