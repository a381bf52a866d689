import { describe, expect, it } from 'vitest';
import { ProveError } from '../errors.js';
import { conditionsOf } from '../spec/conditions.js';
import { parseSweepSpec } from '../spec/sweep-spec.js';
import { narrowSpec, parseOnly } from './narrow-spec.js';

const SPEC = parseSweepSpec('target_id = "t"\nt_unit = "turns"\nreplicates = 4\n[axes.slack]\ntype = "continuous"\nvalues = [2, 4, 8]\n[axes.task]\ntype = "categorical"\nvalues = ["a", "b", "c"]\n');

describe('--only', () => {
  it('parses AXIS=V1,V2 arguments and refuses malformed ones, all at once', () => {
    expect(parseOnly(['task=c,a', 'slack=4'])).toEqual({ task: ['c', 'a'], slack: ['4'] });
    const err = (() => {
      try {
        parseOnly(['task', 'slack=', 'task=a', 'task=b']);
      } catch (e) {
        return e as ProveError;
      }
      return null;
    })();
    expect(err?.code).toBe('E_ONLY');
    expect(err?.problems).toHaveLength(3);
    expect(err?.problems[2]).toContain('names the axis "task" twice');
  });

  it('selects a value that holds a comma, written with a backslash before it (no value with a comma could be named)', () => {
    const spec = parseSweepSpec('target_id = "t"\nt_unit = "turns"\nreplicates = 4\n[axes.prompt]\ntype = "categorical"\nvalues = ["short, direct", "long", "a\\\\b"]\n');
    expect(parseOnly(['prompt=short\\, direct,long'])).toEqual({ prompt: ['short, direct', 'long'] });
    expect(narrowSpec(spec, parseOnly(['prompt=short\\, direct'])).only).toEqual({ prompt: ['short, direct'] });
    // A backslash before anything else is itself; two are one.
    expect(parseOnly(['prompt=a\\b'])).toEqual({ prompt: ['a\\b'] });
    expect(parseOnly(['prompt=a\\\\b'])).toEqual({ prompt: ['a\\b'] });
    // Unescaped, the comma splits, and the refusal says how to name the value.
    expect(() => narrowSpec(spec, parseOnly(['prompt=short, direct']))).toThrow('--only prompt=short,direct: the axis "prompt" has no value "short", "direct"; its values are "short, direct", "long", "a\\\\b". A value that holds a comma is written with a backslash before it: --only \'prompt=short\\, direct\'.');
  });

  it('narrows axes to the kept values in the spec\'s order, typed as the axis', () => {
    const { spec, only } = narrowSpec(SPEC, { task: ['c', 'a'], slack: ['8'] });
    expect(spec.axes['task']).toEqual({ type: 'categorical', values: ['a', 'c'] });
    expect(spec.axes['slack']).toEqual({ type: 'continuous', values: [8] });
    expect(only).toEqual({ task: ['a', 'c'], slack: [8] });
    expect(conditionsOf(spec).map((c) => c.label)).toEqual(['slack 8 · task a', 'slack 8 · task c']);
  });

  it('lists every unknown axis and value', () => {
    expect(() => narrowSpec(SPEC, { colour: ['red'], task: ['z'], slack: [5] })).toThrow(ProveError);
    try {
      narrowSpec(SPEC, { colour: ['red'], task: ['z'], slack: [5] });
    } catch (e) {
      expect((e as ProveError).problems).toEqual([
        '--only names the axis "colour", which the spec does not have; its axes are slack, task.',
        '--only task=z: the axis "task" has no value "z"; its values are "a", "b", "c".',
        '--only slack=5: the axis "slack" has no value 5; its values are 2, 4, 8.',
      ]);
    }
  });

  // A review (2026-12-06): the selection was a plain {}: `--only __proto__=a` set its prototype and ran
  // the whole spec, `--only toString=a` was refused as naming "the axis twice", and `--only constructor=a`
  // met Object's function as the axis and failed with an internal TypeError.
  it('reads an axis named like an Object.prototype member as any other name: unknown to the spec, refused by name', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const only = parseOnly([`${name}=a`]);
      expect(Object.entries(only)).toEqual([[name, ['a']]]);
      let err: unknown;
      try {
        narrowSpec(SPEC, only);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ProveError);
      expect((err as ProveError).problems).toEqual([`--only names the axis "${name}", which the spec does not have; its axes are slack, task.`]);
    }
    expect(() => parseOnly(['toString=a', 'toString=b'])).toThrow(/--only names the axis "toString" twice/);
  });

  it('keeps a value named like an Object.prototype member', () => {
    const spec = parseSweepSpec('target_id = "t"\nt_unit = "turns"\nreplicates = 4\n[axes.arm]\ntype = "categorical"\nvalues = ["x", "__proto__", "constructor", "toString"]\n');
    const { spec: narrowed, only } = narrowSpec(spec, parseOnly(['arm=toString,__proto__']));
    expect(narrowed.axes['arm']).toEqual({ type: 'categorical', values: ['__proto__', 'toString'] });
    expect(only).toEqual({ arm: ['__proto__', 'toString'] });
  });
});
