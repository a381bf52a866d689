import { describe, expect, it } from 'vitest';
import { createEnvironment } from './environment.js';
import { runEpisode } from './episode.js';
import { generate } from './generate.js';
import type { Policy, PolicyAction } from './policy.js';
import { referencePolicy } from './reference-policy.js';
import { maxTurns } from './turns.js';
import { stageOutput } from './scenario.js';
import { D1, D1H3, D3 } from './__fixtures__/arms.js';

const scripted = (actions: PolicyAction[]): Policy => ({
  name: 'scripted',
  act: (ctx) => Promise.resolve(actions[ctx.turn - 1] ?? { kind: 'call', name: 'stage_amber', arguments: { token: ctx.task.start } }),
});

describe('runEpisode with the reference policy', () => {
  it('passes with t = d + 1 and d calls: 2, 4, 2 turns and 1, 3, 1 calls for the seed arms', async () => {
    for (let seed = 0; seed < 25; seed++) {
      const results = await Promise.all([D1, D3, D1H3].map((a) => runEpisode(generate(a, seed), referencePolicy, { maxTurns: maxTurns(a, 4) })));
      expect(results.map((r) => r.outcome)).toEqual(['passed', 'passed', 'passed']);
      expect(results.map((r) => r.t)).toEqual([2, 4, 2]);
      expect(results.map((r) => r.calls.length)).toEqual([1, 3, 1]);
    }
  });

  // STYLE.md: results are frozen, through their records (a review, fifth session of 2026-12-07: the calls
  // array was frozen and its records were not, so a policy or a caller could rewrite a call's output).
  it('returns a frozen result whose call records are frozen too', async () => {
    const r = await runEpisode(generate(D3, 1), referencePolicy, { maxTurns: maxTurns(D3, 4) });
    expect(Object.isFrozen(r)).toBe(true);
    expect(Object.isFrozen(r.calls)).toBe(true);
    expect(r.calls.length).toBe(3);
    expect(r.calls.every((c) => Object.isFrozen(c))).toBe(true);
  });

  // The record's arguments were the policy's own object: a policy that changed it after the call rewrote
  // the recorded call (valid, with the output of the token it no longer holds), and so could a caller.
  it("keeps a call's arguments as they were called, whatever the policy does with its object after", async () => {
    const task = generate(D3, 1);
    const kept: { token: string }[] = [];
    const policy: Policy = {
      name: 'rewriting',
      act: async ({ turn }): Promise<PolicyAction> => {
        for (const k of kept) k.token = 'rewritten';
        const step = task.solution[turn - 1];
        if (step === undefined) return { kind: 'answer', text: task.answer };
        const args = { ...(step.arguments as { token: string }) };
        kept.push(args);
        return { kind: 'call', name: step.name, arguments: args };
      },
    };
    const r = await runEpisode(task, policy, { maxTurns: maxTurns(D3, 4) });
    expect(r.outcome).toBe('passed');
    expect(r.calls.map((c) => (c.arguments as { token: string }).token)).toEqual(task.solution.map((c) => (c.arguments as { token: string }).token));
    expect(Object.isFrozen(r.calls[0]?.arguments)).toBe(true);
    // Arguments with an object inside (not valid ones, and recorded all the same): copied and frozen whole.
    const env = createEnvironment(task, { maxTurns: maxTurns(D3, 4) });
    const nested = { token: 'x', more: { deep: 'as called' } };
    env.step({ kind: 'call', name: task.solution[0]!.name, arguments: nested });
    nested.more.deep = 'rewritten';
    const recorded = env.calls[0]?.arguments as { more: { deep: string } };
    expect(recorded.more.deep).toBe('as called');
    expect(Object.isFrozen(recorded.more)).toBe(true);
  });

  it('is truncated when the budget is smaller than the turns needed', async () => {
    const r = await runEpisode(generate(D3, 0), referencePolicy, { maxTurns: 3 });
    expect(r).toMatchObject({ outcome: 'truncated', t: 3, answer: null });
    expect(r.calls.length).toBe(3);
  });
});

describe('outcomes', () => {
  it('failed: a wrong answer', async () => {
    const t = generate(D1, 1);
    const r = await runEpisode(t, scripted([{ kind: 'answer', text: t.answer === 'vorn' ? 'tesk' : 'vorn' }]), { maxTurns: 6 });
    expect(r).toMatchObject({ outcome: 'failed', t: 1 });
  });

  it('strict: an invalid call fails the episode; lenient: it is answered with an error and play goes on', async () => {
    const bad: PolicyAction = { kind: 'call', name: 'stage_nowhere', arguments: { token: 'vorn' } };
    const strict = generate(D1, 2);
    const rs = await runEpisode(strict, scripted([bad]), { maxTurns: 6 });
    expect(rs).toMatchObject({ outcome: 'failed', t: 1 });
    expect(rs.calls[0]).toMatchObject({ valid: false, output: null, error: 'there is no tool named "stage_nowhere"' });

    const lenient = generate({ ...D1, strictness: 'lenient' }, 2);
    const call = lenient.solution[0]!;
    const rl = await runEpisode(
      lenient,
      scripted([bad, { kind: 'call', name: call.name, arguments: JSON.stringify(call.arguments) }, { kind: 'answer', text: ` ${lenient.answer.toUpperCase()}.` }]),
      { maxTurns: 6 },
    );
    expect(rl).toMatchObject({ outcome: 'passed', t: 3 });
    expect(rl.calls.map((c) => c.valid)).toEqual([false, true]);
  });

  it('names each kind of invalid call', () => {
    const t = generate({ ...D3, strictness: 'lenient' }, 3);
    const env = createEnvironment(t, { maxTurns: 10 });
    const name = t.solution[0]!.name;
    expect(env.step({ kind: 'call', name, arguments: '{not json' }).observation).toBe('error: the arguments are not valid JSON: {not json');
    expect(env.step({ kind: 'call', name, arguments: [1] }).observation).toBe('error: the arguments must be an object {"token": "..."}');
    expect(env.step({ kind: 'call', name, arguments: { token: 'vorn', extra: 1 } }).observation).toBe(
      'error: the arguments must be exactly {"token": "<a token>"}',
    );
    expect(env.step({ kind: 'call', name, arguments: { token: 'zzz' } }).observation).toBe('error: "zzz" is not a token of this relay');
    expect(env.done).toBe(false);
    expect(env.t).toBe(4);
  });

  it("quotes the model's text literally in an error, even replacement patterns like $& and $`", () => {
    const t = generate({ ...D3, strictness: 'lenient' }, 3);
    const env = createEnvironment(t, { maxTurns: 10 });
    expect(env.step({ kind: 'call', name: t.solution[0]!.name, arguments: "{$& $` $'" }).observation).toBe(
      "error: the arguments are not valid JSON: {$& $` $'",
    );
    expect(env.step({ kind: 'call', name: 'stage_$&', arguments: '{}' }).observation).toBe('error: there is no tool named "stage_$&"');
  });
});

describe('createEnvironment, stepped turn by turn', () => {
  it('records the conversation in the chat shape and refuses a step after the end', () => {
    const t = generate(D3, 4);
    const env = createEnvironment(t, { maxTurns: 8 });
    const first = t.solution[0]!;
    const step = env.step({ kind: 'call', name: first.name, arguments: first.arguments, id: 'abc' });
    expect(step).toEqual({ t: 1, done: false, outcome: null, observation: stageOutput(t, first.name, first.arguments.token), valid: true });
    expect(env.messages.slice(-2)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'abc', type: 'function', function: { name: first.name, arguments: JSON.stringify(first.arguments) } }] },
      { role: 'tool', tool_call_id: 'abc', content: step.observation },
    ]);
    // The grader judges the answer, not the path: the right token after one call of three still passes.
    expect(env.step({ kind: 'answer', text: t.answer })).toMatchObject({ done: true, outcome: 'passed', t: 2 });
    expect(() => env.step({ kind: 'answer', text: t.answer })).toThrow(`the episode of task ${t.taskId} is over (passed); create a new environment to play again`);
    expect(() => createEnvironment(t, { maxTurns: 0 })).toThrow('maxTurns must be a positive integer, got 0');
  });
});

// A review (2026-12-07): createEnvironment and runEpisode took { maxTurns: 1e308 } (an integer to
// Number.isInteger), a budget no episode can reach: past 2^53 - 1 the turn count t + 1 equals t.
describe('a turn budget past 2^53 - 1', () => {
  it('is refused by createEnvironment and runEpisode, naming the bound and why', async () => {
    const message = (v: string): RangeError =>
      new RangeError(`maxTurns must be at most 2^53 - 1 = 9007199254740991, past which a number cannot count turns one by one (t + 1 equals t), so the episode could never reach its budget; got ${v} (use maxTurns(arm, slack))`);
    expect(() => createEnvironment(generate(D3, 1), { maxTurns: 1e308 })).toThrow(message('1e+308'));
    await expect(runEpisode(generate(D3, 1), referencePolicy, { maxTurns: 2 ** 53 })).rejects.toThrow(message('9007199254740992'));
    expect(createEnvironment(generate(D3, 1), { maxTurns: Number.MAX_SAFE_INTEGER }).maxTurns).toBe(Number.MAX_SAFE_INTEGER);
  });
});
