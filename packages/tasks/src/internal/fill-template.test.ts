import { describe, expect, it } from 'vitest';
import { fillTemplate } from './fill-template.js';
import { ALGORITHM, MESSAGE_LAYOUT, TEMPLATES, TOOL_TEMPLATE } from './relay-data.js';

// The reference: the one-pass regex replace fillTemplate was before its templates were cut once and cached.
const PLACEHOLDER = /\{([A-Za-z]+)\}/g;
function replaced(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (_, name: string) => values[name] as string);
}

function strings(x: unknown): string[] {
  if (typeof x === 'string') return [x];
  if (Array.isArray(x)) return x.flatMap(strings);
  if (x !== null && typeof x === 'object') return Object.values(x).flatMap(strings);
  return [];
}

describe('fillTemplate', () => {
  it('fills every string of the generator data as the regex replace does', () => {
    const all = [...strings(TEMPLATES), ...strings(TOOL_TEMPLATE), ...strings(MESSAGE_LAYOUT), ...strings(ALGORITHM)];
    expect(all.length).toBeGreaterThan(10);
    for (const t of all) {
      const names = [...t.matchAll(PLACEHOLDER)].map((m) => m[1] as string);
      const values = Object.fromEntries(names.map((n, i) => [n, `<${n}:${i}$&{${n}}>`]));
      expect(fillTemplate(t, values)).toBe(replaced(t, values));
    }
  });

  it('fills in one pass: a value holding a placeholder or a $ pattern is kept as it is', () => {
    expect(fillTemplate('a {x} b {y}{x}', { x: '{y}', y: '$&' })).toBe('a {y} b $&{y}');
    expect(fillTemplate('{x}', { x: '' })).toBe('');
    expect(fillTemplate('no placeholder', {})).toBe('no placeholder');
    expect(fillTemplate('{not a placeholder} {1}', {})).toBe('{not a placeholder} {1}');
  });

  it('copies arrays and objects deeply and leaves other leaves as they are', () => {
    const template = { name: 'stage_{stage}', list: ['{stage}', 3, null, true], nested: { d: '{stage}!' } };
    const filled = fillTemplate(template, { stage: 'amber' });
    expect(filled).toEqual({ name: 'stage_amber', list: ['amber', 3, null, true], nested: { d: 'amber!' } });
    expect(filled.nested).not.toBe(template.nested);
    expect(template.name).toBe('stage_{stage}');
  });

  it('refuses a placeholder without a value, naming it and the values given, every time it is asked', () => {
    const msg = 'template placeholder {token} has no value; give one of stage';
    expect(() => fillTemplate('{stage} {token}', { stage: 'a' })).toThrow(msg);
    expect(() => fillTemplate('{stage} {token}', { stage: 'a' })).toThrow(msg);
    // an inherited property is no value
    expect(() => fillTemplate('{toString}', {})).toThrow('template placeholder {toString} has no value');
  });
});
