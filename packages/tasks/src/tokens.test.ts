import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import type { ArmSpec } from './arm-spec.js';
import { generate } from './generate.js';
import { referenceMessages } from './reference-policy.js';
import { asciiPattern } from './internal/ascii-split.js';
import { contextTokens, countTokens, promptTokens, renderContext } from './tokens.js';
import { D1, D1H3, D3 } from './__fixtures__/arms.js';

/** A seeded generator of integers in [0, n) (a linear congruential generator; fixed inputs, not luck). */
function seeded(seed: number): (n: number) => number {
  let x = seed;
  return (n) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return Math.floor((x / 2 ** 32) * n);
  };
}

describe('countTokens (o200k_base, shipped with gpt-tokenizer)', () => {
  it('counts with the o200k_base encoding', () => {
    // Cross-check against the encoding module itself; o200k_base splits "hello world" into 2 tokens.
    expect(countTokens('hello world')).toBe(encode('hello world').length);
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('')).toBe(0);
    // A special-token string is counted as text, not refused.
    expect(countTokens('<|endoftext|>')).toBeGreaterThan(1);
  });

  // countTokens computes the count itself from gpt-tokenizer's split pattern and ranks (held as a sorted
  // byte table); gpt-tokenizer's own encoder is the reference it must equal on every input.
  const reference = (text: string): number => encode(text, { disallowedSpecial: new Set() }).length;

  it("equals gpt-tokenizer's count on the vocabulary's own entries, alone and repeated", () => {
    const ranks = (createRequire(import.meta.url)('gpt-tokenizer/bpeRanks/o200k_base') as { default: (string | number[])[] })
      .default;
    const utf8 = new TextDecoder();
    let checked = 0;
    // Every 7th entry (a byte-array entry decodes with U+FFFD where it is not UTF-8).
    for (let rank = 0; rank < ranks.length; rank += 7) {
      const v = ranks[rank];
      if (v === undefined) continue;
      const text = typeof v === 'string' ? v : utf8.decode(Uint8Array.from(v));
      for (const s of [text, `${text}${text} ${text}\n`]) {
        expect.soft(countTokens(s), JSON.stringify(s)).toBe(reference(s));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50_000);
  });

  it("equals gpt-tokenizer's count on seeded random text: byte-order marks, lone surrogates, scripts, digits, spaces", () => {
    // Pieces chosen for the lookups' edge cases: U+FEFF (the decoder drops a leading one), lone surrogates
    // (no whole-piece match; UTF-8 turns them into U+FFFD), combining marks, astral characters, contractions.
    const parts = ['a', 'Z', ' ', '  ', '\n', '\r\n', '\t', '/', '\uFEFF', '\uD800', '\uDC00', '😀', '中文', 'é', 'e\u0301',
      '1', '234', "'s", "'LL", '!', '...', '\u00A0', '\u200B', 'ß', 'İ', '\u0000', '\x7f', '\u0080', '<|endoftext|>', 'ﬁ',
      'ǅ', '\uFFFD', '𝔘', 'Привет', 'مرحبا', '👩‍💻'];
    const next = seeded(12345);
    for (let k = 0; k < 20_000; k++) {
      let s = '';
      for (let j = 0, n = 1 + next(20); j < n; j++) s += parts[next(parts.length)];
      expect.soft(countTokens(s), JSON.stringify(s)).toBe(reference(s));
    }
    for (let k = 0; k < 5_000; k++) {
      // Any UTF-16 code units, surrogates included.
      let s = '';
      for (let j = 0, n = 1 + next(12); j < n; j++) s += String.fromCharCode(next(0x10000));
      expect.soft(countTokens(s), JSON.stringify(s)).toBe(reference(s));
    }
  });

  it("equals gpt-tokenizer's count on the rendered prompts and contexts of every fixture arm", () => {
    const arms: ArmSpec[] = [D1, D3, D1H3, { ...D3, level: 8 }, { ...D1, knob: 'width', level: 4 }];
    for (let seed = 0; seed < 20; seed++) {
      for (const arm of arms) {
        const t = generate(arm, seed);
        for (const m of [t.messages, referenceMessages(t, t.solution.length)]) {
          const text = renderContext(t.tools, m);
          expect(countTokens(text)).toBe(reference(text));
        }
      }
    }
  });
});

describe('contextTokens', () => {
  it('equals the count of the whole rendered text, for prompts and mid-episode contexts', () => {
    const arms: ArmSpec[] = [D1, D3, D1H3, { ...D3, level: 8 }, { ...D1, knob: 'width', level: 4 }];
    for (let seed = 0; seed < 40; seed++) {
      for (const arm of arms) {
        const t = generate(arm, seed);
        expect(promptTokens(t)).toBe(countTokens(renderContext(t.tools, t.messages)));
        const mid = referenceMessages(t, t.solution.length);
        expect(contextTokens(t.tools, mid)).toBe(countTokens(renderContext(t.tools, mid)));
      }
    }
  });

  it('stays exact on text whose lines start with whitespace or "/" (no split there)', () => {
    const messages = [
      { role: 'user', content: 'a.\n/b\n  c\n\n\nd!\n/e' },
      { role: 'assistant', content: 'x\n y\n' },
    ] as const;
    expect(contextTokens([], messages)).toBe(countTokens(renderContext([], messages)));
  });

  it('counts a line the same whether it ends a message or not, and each role by its own header (the memos of the last segment and the role)', () => {
    const line = 'Route: stage_amber -> stage_dune';
    const contexts = [
      [{ role: 'user', content: line }],
      [{ role: 'user', content: `${line}\n${line}` }],
      [{ role: 'tool', content: line }],
      [{ role: 'user', content: `${line}\n` }],
      [{ role: 'user', content: `x\n${line}` }],
      [{ role: 'system', content: line }, { role: 'user', content: line }],
      [{ role: 'us\ner', content: line }],
      [{ role: 'user', content: ` ${line}` }],
      [{ role: 'user', content: '' }],
    ] as const;
    // Twice over, so that the second pass is answered from the memos the first filled.
    for (let pass = 0; pass < 2; pass++) {
      for (const messages of contexts) expect(contextTokens([], messages as never)).toBe(countTokens(renderContext([], messages as never)));
    }
  });

  it('stays exact on random texts of newlines, spaces (Unicode ones too), "/" and letters, over several messages', () => {
    const alphabet = ['a', 'b', '\n', '\n', ' ', '/', '\t', '\r', '\u00a0', '\u2028', '\u3000', 'é', '!', '🎲'];
    let x = 12345;
    const next = (): number => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0; // a fixed LCG: the same texts every run
      return x >>> 8;
    };
    const text = (): string => Array.from({ length: next() % 40 }, () => alphabet[next() % alphabet.length]).join('');
    for (let i = 0; i < 300; i++) {
      const messages = [
        { role: 'system', content: text() },
        { role: 'user', content: text() },
        { role: 'assistant', content: i % 3 === 0 ? null : text(), ...(i % 2 === 0 ? { tool_calls: [{ id: 'c', type: 'function', function: { name: 'stage_a', arguments: text() } }] } : {}) },
        { role: 'tool', tool_call_id: 'c', content: text() },
      ] as const;
      expect(contextTokens([], messages as never)).toBe(countTokens(renderContext([], messages as never)));
    }
  });
});

describe('the control arm is length-matched', () => {
  it("depth:d1+h3's prompt is within 2% of depth:d3's context at its last step, on 1000 seeds", () => {
    // Measured at generator version 0: mean -1.10%, range -1.43% to -0.92% (the control's task message names
    // one stage where d3's names three). Tools are part of both contexts.
    const rel: number[] = [];
    for (let seed = 0; seed < 1000; seed++) {
      const d3 = generate(D3, seed);
      const c = generate(D1H3, seed);
      const last = contextTokens(d3.tools, referenceMessages(d3, 2));
      rel.push((promptTokens(c) - last) / last);
    }
    const mean = rel.reduce((a, b) => a + b, 0) / rel.length;
    expect(Math.max(...rel.map(Math.abs))).toBeLessThan(0.02);
    // Regression pin, not an independent reference: -0.011 is the mean this code measured (above).
    expect(mean).toBeCloseTo(-0.011, 3);
  });

  // A review of the sixth session of 2026-12-06: docs/tasks.md said "a test holds it under 2% on every
  // seed", and only depth:d1+h3 was tested; deeper controls fall further short (the control's task
  // message names one stage where depth d's names d: about half a point a level). Measured at generator
  // version 0, 1000 seeds (mean, min, max in %): h2 -0.56 (-0.81, -0.40), h3 -1.10 (-1.43, -0.92),
  // h4 -1.61 (-1.90, -1.40), h5 -2.09 (-2.35, -1.86), h6 -2.55 (-2.77, -2.29), h7 -2.99 (-3.18, -2.71),
  // h8 -3.40 (-3.56, -3.21). Regression pins of this code's figures, not an independent reference.
  it('every control h2 to h8 is shorter than its partner at its last step, by under 4% on 1000 seeds', () => {
    const means: Record<number, number> = { 2: -0.0056, 3: -0.011, 4: -0.0161, 5: -0.0209, 6: -0.0255, 7: -0.0299, 8: -0.034 };
    for (let h = 2; h <= 8; h++) {
      const deep: ArmSpec = { ...D3, level: h };
      const control: ArmSpec = { ...D1H3, controlHistory: h };
      const rel: number[] = [];
      for (let seed = 0; seed < 1000; seed++) {
        const d = generate(deep, seed);
        const last = contextTokens(d.tools, referenceMessages(d, h - 1));
        rel.push((promptTokens(generate(control, seed)) - last) / last);
      }
      expect(Math.max(...rel), `h${h}`).toBeLessThan(0);
      expect(Math.min(...rel), `h${h}`).toBeGreaterThan(-0.04);
      expect(rel.reduce((a, b) => a + b, 0) / rel.length, `h${h}`).toBeCloseTo(means[h] as number, 3);
    }
  });

  it('while depth:d1 is clearly shorter than that context', () => {
    const d3 = generate(D3, 0);
    const last = contextTokens(d3.tools, referenceMessages(d3, 2));
    expect(promptTokens(generate(D1, 0)) / last).toBeLessThan(0.97);
  });
});

describe('the split of ASCII text', () => {
  it("narrows o200k's pattern to ASCII and splits ASCII text exactly as the full pattern does", async () => {
    const { O200K_TOKEN_SPLIT_REGEX: full } = await import('gpt-tokenizer/encodingParams/constants');
    const ascii = asciiPattern(full.source);
    // The narrowed pattern has no Unicode class left (else countTokens would use the full one throughout).
    expect(ascii).not.toBeNull();
    const narrow = new RegExp(ascii!, 'g');
    const pieces = (re: RegExp, s: string): string[] => [...s.matchAll(re)].map((m) => m[0]);
    // Seeded: every ASCII character, with letters, digits, apostrophes, spaces and line ends weighted up.
    const chars = [...Array(128).keys()].map((c) => String.fromCharCode(c));
    const weighted = [...chars, ...'aAzZeEsStTlLvVrRdDmM'.repeat(4), ..."''''  \n\n\r\t//0123456789", ...'    '];
    const next = seeded(7);
    for (let k = 0; k < 50_000; k++) {
      let s = '';
      for (let j = 0, n = 1 + next(24); j < n; j++) s += weighted[next(weighted.length)];
      expect.soft(pieces(narrow, s), JSON.stringify(s)).toEqual(pieces(full, s));
    }
  });

  it('is not used for text with a character beyond ASCII', () => {
    // 'é' is a letter to the full pattern and to nothing in the ASCII one: the count must still match.
    for (const s of ["caf\u00e9's", 'na\u00efve  \u00a0x', 'A\u0301b']) expect(countTokens(s)).toBe(encode(s, { disallowedSpecial: new Set() }).length);
  });
});
