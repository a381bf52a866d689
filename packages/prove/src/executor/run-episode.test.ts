import { describe, expect, it } from 'vitest';
import type { Target } from '../target/target.js';
import { episodeRow, runEpisode, targetConfig } from './run-episode.js';

const ITEM = { condition: 'slack 4', values: { slack: 4 }, replicate_index: 0, seed: 7 };
const run = (fn: () => unknown) => runEpisode(fn as unknown as Target, ITEM, '20261106T231318Z-cdf9', null);

describe('runEpisode: a strange result is a row with outcome null and the problem, never a throw', () => {
  const cyclic: Record<string, unknown> = {};
  cyclic['self'] = cyclic;
  const cases: [string, () => unknown, RegExp][] = [
    ['meta whose toJSON returns undefined', () => ({ outcome: 'passed', t: 1, meta: { toJSON: () => undefined } }), /^TypeError: the target's meta is not JSON \(JSON\.stringify gave undefined, e\.g\. from a toJSON that returns undefined\)/],
    ['meta with a BigInt', () => ({ outcome: 'passed', t: 1, meta: { b: 10n } }), /^TypeError: the target's meta is not JSON \(TypeError: Do not know how to serialize a BigInt\); return meta as plain data/],
    ['meta with a cycle', () => ({ outcome: 'passed', t: 1, meta: cyclic }), /^TypeError: the target's meta is not JSON \(TypeError: Converting circular structure to JSON/],
    ['an outcome getter that throws', () => ({ get outcome(): string { throw new Error('getter'); }, t: 1 }), /^TypeError: the target's result could not be read \(Error: getter\)$/],
    ['a meta toJSON that throws', () => ({ outcome: 'passed', t: 1, meta: { toJSON() { throw new RangeError('no'); } } }), /^TypeError: the target's meta is not JSON \(RangeError: no\)/],
    ['t NaN', () => ({ outcome: 'passed', t: Number.NaN }), /^TypeError: the target returned t NaN \(not a finite number >= 0\)/],
    ['t Infinity', () => ({ outcome: 'passed', t: Number.POSITIVE_INFINITY }), /^TypeError: the target returned t Infinity \(not a finite number >= 0\)/],
    ['t negative', () => ({ outcome: 'passed', t: -1 }), /^TypeError: the target returned t -1 \(not a finite number >= 0\)/],
    ['score Infinity', () => ({ outcome: 'passed', t: 1, score: Number.POSITIVE_INFINITY }), /^TypeError: the target returned score Infinity \(not a finite number in \[0, 1\] or null\)/],
    ['score 1.5', () => ({ outcome: 'passed', t: 1, score: 1.5 }), /^TypeError: the target returned score 1\.5 \(not a finite number in \[0, 1\] or null\)/],
    ['score NaN', () => ({ outcome: 'passed', t: 1, score: Number.NaN }), /^TypeError: the target returned score NaN /],
    ['outcome 42', () => ({ outcome: 42, t: 1 }), /^TypeError: the target returned outcome 42 \(not a string or null\)/],
    ['a BigInt outcome', () => ({ outcome: 10n, t: 1 }), /^TypeError: the target returned outcome 10n \(not a string or null\)/],
    // A label is one line: a newline broke the text summary, the tables and the Markdown export.
    ['an outcome with a newline', () => ({ outcome: 'passed\nfailed', t: 1 }), /^TypeError: the target returned outcome "passed\\nfailed" \(a label with a control character; an outcome is a one-line label such as "passed" or "failed"\)/],
    ['an outcome with a tab', () => ({ outcome: 'pass\tx', t: 1 }), /^TypeError: the target returned outcome "pass\\tx" \(a label with a control character;/],
    ['an empty outcome', () => ({ outcome: '', t: 1 }), /^TypeError: the target returned outcome "" \(an empty label; return null for an episode without an outcome\)/],
    ['a thrown BigInt', () => { throw 10n; }, /^thrown: 10n$/],
    ['a thrown null', () => { throw null; }, /^thrown: null$/],
  ];
  it.each(cases)('%s', async (_name, fn, message) => {
    const row = await run(fn);
    expect(row.outcome).toBeNull();
    expect(row.t).toBe(0);
    expect(row.meta).toBe('{}');
    expect(row.error).toMatch(message);
  });

  it('keeps a label with spaces, punctuation and letters beyond ASCII', async () => {
    for (const outcome of ['tool error', 'wrong-answer', 'échec', 'a | b']) expect((await run(() => ({ outcome, t: 1 }))).outcome).toBe(outcome);
  });

  it('keeps a good result: t 2**80, score -0 and 1, meta as JSON', async () => {
    expect(await run(() => ({ outcome: 'passed', t: 2 ** 80, score: 1, meta: { a: [1] } }))).toMatchObject({ outcome: 'passed', t: 2 ** 80, score: 1, meta: '{"a":[1]}', error: null });
    expect((await run(() => ({ outcome: null, t: 0, score: -0 }))).score).toBe(-0);
  });
});

describe('runEpisode: the episode signal', () => {
  it('is not made for a target that never reads it (no AbortController per episode)', async () => {
    const Real = globalThis.AbortController;
    let made = 0;
    globalThis.AbortController = class extends Real {
      constructor() {
        super();
        made++;
      }
    };
    try {
      const row = await runEpisode((async () => ({ outcome: 'passed', t: 1 })) as Target, ITEM, '20261106T231318Z-cdf9', 1000);
      expect(row.outcome).toBe('passed');
      expect(made).toBe(0);
    } finally {
      globalThis.AbortController = Real;
    }
  });

  it('aborts at the timeout with a TimeoutError for a target that reads it, the same signal on each read', async () => {
    let seen: AbortSignal | null = null;
    const target = ((_cfg: unknown, ctx: { signal: AbortSignal }) => {
      seen = ctx.signal;
      expect(ctx.signal).toBe(seen);
      return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({ outcome: 'late', t: 1 })));
    }) as unknown as Target;
    const row = await runEpisode(target, ITEM, '20261106T231318Z-cdf9', 30);
    expect(row.error).toBe('TimeoutError: the target ran longer than the timeout of 30 ms');
    const signal = seen as AbortSignal | null;
    expect(signal?.aborted).toBe(true);
    expect((signal?.reason as Error).name).toBe('TimeoutError');
  });

  it('survives a spread: a wrapper passing { ...ctx, extra } on gives its inner call the signal, aborted at the timeout', async () => {
    let inner: AbortSignal | undefined;
    const call = (_cfg: unknown, ctx: { signal?: AbortSignal; extra: number }): Promise<unknown> => {
      inner = ctx.signal;
      return new Promise((resolve) => ctx.signal?.addEventListener('abort', () => resolve({ outcome: 'late', t: 1 })));
    };
    const target = ((cfg: unknown, ctx: { signal: AbortSignal }) => call(cfg, { ...ctx, extra: 1 })) as unknown as Target;
    const row = await runEpisode(target, ITEM, '20261106T231318Z-cdf9', 30);
    expect(row.error).toBe('TimeoutError: the target ran longer than the timeout of 30 ms');
    expect(inner?.aborted).toBe(true);
  });

  it('is already aborted when a target first reads it after the timeout', async () => {
    let later: Promise<AbortSignal> | null = null;
    const target = ((_cfg: unknown, ctx: { signal: AbortSignal }) => {
      later = new Promise((resolve) => setTimeout(() => resolve(ctx.signal), 60));
      return later.then(() => ({ outcome: 'late', t: 1 }));
    }) as unknown as Target;
    const row = await runEpisode(target, ITEM, '20261106T231318Z-cdf9', 20);
    expect(row.error).toBe('TimeoutError: the target ran longer than the timeout of 20 ms');
    const signal = await (later as unknown as Promise<AbortSignal>);
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('the episode ran longer than the timeout of 20 ms');
  });

  it('is an own, enumerable property, read through a destructuring or a context used as a prototype; each episode has its own', async () => {
    const seen: { keys: string[]; own: PropertyDescriptor | undefined; viaProto: AbortSignal; destructured: AbortSignal; direct: AbortSignal }[] = [];
    const target = ((_cfg: unknown, ctx: { signal: AbortSignal }) => {
      const { signal } = ctx;
      const derived = Object.create(ctx) as { signal: AbortSignal };
      seen.push({ keys: Object.keys(ctx), own: Object.getOwnPropertyDescriptor(ctx, 'signal'), viaProto: derived.signal, destructured: signal, direct: ctx.signal });
      return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({ outcome: 'late', t: 1 })));
    }) as unknown as Target;
    const row = await runEpisode(target, ITEM, '20261106T231318Z-cdf9', 20);
    expect(row.error).toBe('TimeoutError: the target ran longer than the timeout of 20 ms');
    await runEpisode((async (_cfg: unknown, ctx: { signal: AbortSignal }) => {
      seen.push({ keys: Object.keys(ctx), own: Object.getOwnPropertyDescriptor(ctx, 'signal'), viaProto: (Object.create(ctx) as { signal: AbortSignal }).signal, destructured: ctx.signal, direct: ctx.signal });
      return { outcome: 'passed', t: 1 };
    }) as unknown as Target, ITEM, '20261106T231318Z-cdf9', 1000);
    const [first, second] = seen;
    expect(first?.keys).toEqual(['signal']);
    expect(first?.own?.enumerable).toBe(true);
    expect(first?.viaProto).toBe(first?.direct);
    expect(first?.destructured).toBe(first?.direct);
    expect(first?.direct.aborted).toBe(true);
    expect(second?.direct.aborted).toBe(false);
    expect(second?.direct).not.toBe(first?.direct);
  });
});

describe('runEpisode: the row', () => {
  it('holds the run, the condition, the axis values in the item\'s order, the replicate and seed, then the episode\'s fields', async () => {
    const item = { condition: 'b 1 · a x', values: { b: 1, a: 'x' }, replicate_index: 3, seed: 9 };
    const row = await runEpisode((() => ({ outcome: 'passed', t: 2, score: 0.5, meta: { k: 'v' } })) as unknown as Target, item, '20261106T231318Z-cdf9', null);
    expect(Object.keys(row)).toEqual(['run_id', 'condition', 'b', 'a', 'replicate_index', 'seed', 'outcome', 't', 'score', 'error', 'meta', 'duration_ms']);
    expect(row).toMatchObject({ run_id: '20261106T231318Z-cdf9', condition: 'b 1 · a x', b: 1, a: 'x', replicate_index: 3, seed: 9, outcome: 'passed', t: 2, score: 0.5, error: null, meta: '{"k":"v"}' });
  });
});

describe('targetConfig and episodeRow: made from their condition\'s templates when its values are frozen', () => {
  const values = { strictness: 'strict', horizon: 8, slack: 2 };
  const frozen = Object.freeze({ ...values });
  const item = (v: Record<string, string | number>, r: number, condition = 'horizon 8 · slack 2 · strictness strict') => ({ condition, values: v, replicate_index: r, seed: 1000 + r });
  const fields = { outcome: 'passed', t: 3, score: null, error: null, meta: '{"k":1}' };

  it('gives the same keys, in the same order, and the same values, for frozen values and for values that are not', () => {
    for (let r = 0; r < 3; r++) {
      const a = targetConfig(item(frozen, r));
      const b = targetConfig(item({ ...values }, r));
      expect(Object.entries(a)).toEqual(Object.entries(b));
      expect(Object.keys(a)).toEqual(['strictness', 'horizon', 'slack', 'seed', 'replicate_index']);
      expect(a).toMatchObject({ seed: 1000 + r, replicate_index: r });
      const rowA = episodeRow(item(frozen, r), 'run-a', fields, 1.5);
      const rowB = episodeRow(item({ ...values }, r), 'run-a', fields, 1.5);
      expect(Object.entries(rowA)).toEqual(Object.entries(rowB));
      expect(Object.keys(rowA)).toEqual(['run_id', 'condition', 'strictness', 'horizon', 'slack', 'replicate_index', 'seed', 'outcome', 't', 'score', 'error', 'meta', 'duration_ms']);
    }
    // Each is a new object: a target that changes its config changes no other episode's.
    const first = targetConfig(item(frozen, 0));
    first['slack'] = 99;
    expect(targetConfig(item(frozen, 0))['slack']).toBe(2);
  });

  it('reads values that could change (a getter, another prototype) anew for every item, and takes values that are no object as before', () => {
    let n = 0;
    const counting = Object.freeze(Object.defineProperty({}, 'slack', { enumerable: true, get: () => ++n }));
    expect([targetConfig(item(counting as Record<string, number>, 0))['slack'], targetConfig(item(counting as Record<string, number>, 1))['slack']]).toEqual([1, 2]);
    const proto = { model: 'A' };
    const inherits = Object.freeze(Object.create(proto) as Record<string, string>);
    expect(episodeRow(item(inherits, 0), 'r', fields, 0)['model']).toBe('A');
    proto.model = 'B';
    expect(episodeRow(item(inherits, 1), 'r', fields, 0)['model']).toBe('B');
    // A custom backend's item without values: a row with no axis values, as before (no throw).
    const bare = { condition: 'c', values: undefined as unknown as Record<string, number>, replicate_index: 0, seed: 1 };
    expect(Object.keys(episodeRow(bare, 'r', fields, 0))).toEqual(['run_id', 'condition', 'replicate_index', 'seed', 'outcome', 't', 'score', 'error', 'meta', 'duration_ms']);
  });

  it('keeps each condition\'s label when a values object is shared by two conditions (a custom backend\'s items)', () => {
    const shared = Object.freeze({ slack: 2 });
    expect(episodeRow(item(shared, 0, 'slack 2'), 'r', fields, 0).condition).toBe('slack 2');
    expect(episodeRow(item(shared, 1, 'slack two'), 'r', fields, 0).condition).toBe('slack two');
    expect(episodeRow(item(shared, 2, 'slack 2'), 'r', fields, 0).condition).toBe('slack 2');
  });
});
