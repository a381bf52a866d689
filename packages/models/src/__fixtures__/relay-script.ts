// Scripted model behaviours for poisson-tasks relay tasks, keyed by the episode seed the request carries.
import { generate, type ArmSpec, type Task } from 'poisson-tasks';
import type { Reply, Script } from './mock-chat-server.js';

export const D3: ArmSpec = { knob: 'depth', level: 3, controlHistory: null, strictness: 'strict', split: 'eval', generatorVersion: '0' };

export type Behaviour = 'correct' | 'wrong_tool' | 'wrong_answer' | 'never_answers';

function toolMessages(body: Record<string, unknown>): number {
  return (body['messages'] as Array<{ role: string }>).filter((m) => m.role === 'tool').length;
}

/** A model that plays the relay: right, with a wrong tool, with a wrong final answer, or never answering. */
export function relayScript(arm: ArmSpec, behaviour: Behaviour | ((seed: number) => Behaviour)): Script {
  const tasks = new Map<number, Task>();
  return (request): Reply => {
    const seed = request.body['seed'] as number;
    let task = tasks.get(seed);
    if (!task) tasks.set(seed, (task = generate(arm, seed)));
    const mode = typeof behaviour === 'function' ? behaviour(seed) : behaviour;
    const k = toolMessages(request.body) - task.history.length;
    const step = task.solution[Math.min(k, task.solution.length - 1)];
    if (mode === 'never_answers') return { kind: 'tool', calls: [{ name: (task.solution[0] as { name: string }).name, arguments: (task.solution[0] as { arguments: unknown }).arguments }] };
    if (mode === 'wrong_tool' && k === 1) return { kind: 'tool', calls: [{ name: 'stage_does_not_exist', arguments: { token: 'x' } }] };
    if (k < task.solution.length && step) return { kind: 'tool', calls: [{ name: step.name, arguments: step.arguments }] };
    return { kind: 'text', content: mode === 'wrong_answer' ? `The final token is ${task.start}.` : task.answer };
  };
}
