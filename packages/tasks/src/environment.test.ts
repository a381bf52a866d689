import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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

  // `step` made in the constructor as an arrow function (`(action) => this.#step(action)`) kept finished
  // environments, and the tasks they hold, alive through scavenges in node 20 (V8 11.3): 755 to 1,340
  // bytes an episode went to the old generation, against 334 to 346 with a bound method (3 runs each of
  // the fixture below). And once a process had allocated before its episodes (a sweep computes its seeds
  // first), V8 pretenured the episodes' allocation sites: every scavenge then promoted ~2.5 MB, and a loop
  // of reference episodes ran ~20% slower (docs/performance.md, Executor throughput, "First session of 2026-12-05").
  it('leaves finished environments to the young generation (V8 promotes under 550 bytes an episode)', () => {
    const script = fileURLToPath(new URL('./__fixtures__/finished-environments.ts', import.meta.url));
    const r = spawnSync(process.execPath, ['--trace-gc-nvp', '--import', 'tsx', script, '20000'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    const from = lines.indexOf('episodes start');
    const to = lines.indexOf('episodes end');
    expect([from >= 0, to > from]).toEqual([true, true]);
    // Scavenges per isolate (the `[pid:address]` prefix): the main thread's are the episodes' (tsx's
    // loader thread is idle meanwhile).
    const byIsolate = new Map<string, { scavenges: number; promoted: number }>();
    for (const line of lines.slice(from, to)) {
      const m = /^\[(\d+:0x[0-9a-f]+)\].* gc=s .* promoted=(\d+) /.exec(line);
      if (m === null) continue;
      const s = byIsolate.get(m[1] as string) ?? { scavenges: 0, promoted: 0 };
      s.scavenges++;
      s.promoted += Number(m[2]);
      byIsolate.set(m[1] as string, s);
    }
    const { scavenges, promoted } = [...byIsolate.values()].sort((a, b) => b.scavenges - a.scavenges)[0] ?? { scavenges: 0, promoted: 0 };
    // --trace-gc-nvp writes to stdout too: a scavenge (or the exit's mark-compact) may print after the result.
    expect(JSON.parse(lines.slice(to + 1).find((l) => l.startsWith('{')) ?? '')).toEqual({ n: 20_000, passed: 20_000 });
    expect(scavenges).toBeGreaterThan(10); // the trace was read: 20,000 episodes allocate ~600 MB
    expect(promoted / 20_000).toBeLessThan(550);
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
