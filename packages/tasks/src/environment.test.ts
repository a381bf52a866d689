import { describe, expect, it } from 'vitest';
import { createEnvironment } from './environment.js';
import { generate } from './generate.js';
import { D3 } from './__fixtures__/arms.js';

describe('createEnvironment: the state getters are the class’s, not each environment’s', () => {
  // An object literal with getters, made once an episode, took V8's slow path in node 20: every one
  // survived a minor GC and was moved to the old generation with what it held (~5 KB an episode of the
  // reference policy; a fifth of a loop of episodes went to copying them). docs/performance.md has the figures.
  it('reads t, done, outcome and answer through getters of the prototype, and step is the environment’s own', () => {
    const env = createEnvironment(generate(D3, 1), { maxTurns: 8 });
    for (const key of ['t', 'done', 'outcome', 'answer']) {
      expect(Object.getOwnPropertyDescriptor(env, key)).toBeUndefined();
      expect(typeof Object.getOwnPropertyDescriptor(Object.getPrototypeOf(env) as object, key)?.get).toBe('function');
    }
    expect(typeof Object.getOwnPropertyDescriptor(env, 'step')?.value).toBe('function');
  });

  it('plays an episode through a destructured step, and the getters follow it', () => {
    const task = generate(D3, 2);
    const env = createEnvironment(task, { maxTurns: 8 });
    const { step } = env;
    expect([env.t, env.done, env.outcome, env.answer]).toEqual([0, false, null, null]);
    for (const call of task.solution) step({ kind: 'call', name: call.name, arguments: call.arguments });
    expect([env.t, env.done, env.calls.length]).toEqual([task.solution.length, false, task.solution.length]);
    expect(step({ kind: 'answer', text: task.answer })).toEqual({ t: task.solution.length + 1, done: true, outcome: 'passed', observation: null, valid: true });
    expect([env.t, env.done, env.outcome, env.answer]).toEqual([task.solution.length + 1, true, 'passed', task.answer]);
    // Two environments of one task keep their own state.
    const other = createEnvironment(task, { maxTurns: 8 });
    expect([other.t, other.done, other.messages.length]).toEqual([0, false, task.messages.length]);
  });
});
