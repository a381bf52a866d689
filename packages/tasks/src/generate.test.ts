import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ArmSpec } from './arm-spec.js';
import { generate } from './generate.js';
import { generatorHash, generatorIdentity } from './generator-hash.js';
import { KNOBS } from './knobs.js';
import { runEpisode } from './episode.js';
import type { ChatMessage, ToolDefinition } from './messages.js';
import type { Policy } from './policy.js';
import { referencePolicy } from './reference-policy.js';
import { maxTurns } from './turns.js';
import { renderTaskMessage, SYSTEM_PROMPT } from './prompt.js';
import { drawScenario, stageOutput } from './scenario.js';
import { canonicalJson } from './internal/canonical-json.js';
import { sha256Hex } from './internal/sha256.js';
import { D1, D1H3, D3 } from './__fixtures__/arms.js';

// Pinned on purpose: any change to the word list, templates, knob declarations, grader rules or algorithm
// parameters changes this hash and fails here. Regenerate the goldens (see __fixtures__/gen-golden-tasks.ts)
// only for an intended change.
const GENERATOR_HASH_V0 = 'f00cc0aa198fad6caa576e207751dc268764b4030803f555115b5e8990fad67e';

interface Golden {
  generator_version: string;
  generator_hash: string;
  cases: { arm: ArmSpec; seed: number; task: unknown }[];
}
const golden = JSON.parse(readFileSync(new URL('./__fixtures__/golden-tasks.json', import.meta.url), 'utf8')) as Golden;

describe('generatorHash', () => {
  it('is pinned for version "0"', () => {
    expect(generatorHash('0')).toBe(GENERATOR_HASH_V0);
    expect(golden.generator_hash).toBe(GENERATOR_HASH_V0);
  });

  it('is shared by every arm of a version', () => {
    for (const arm of [D1, D3, D1H3, { ...D1, knob: 'width', level: 4 } as ArmSpec, { ...D3, strictness: 'lenient', split: 'train' } as ArmSpec]) {
      expect(generate(arm, 7).generatorHash).toBe(GENERATOR_HASH_V0);
    }
  });

  it('covers the templates: the identity it hashes holds the template text', () => {
    const identity = JSON.stringify(generatorIdentity('0'));
    expect(identity).toContain('Start token: {start}');
    expect(identity).toContain('"levels":[1,2,3,4,5,6,7,8]');
  });

  it('is the sha256 of the canonical JSON of the identity, and every leaf of the identity changes it', () => {
    const identity = generatorIdentity('0');
    const hashOf = (value: unknown): string => sha256Hex(canonicalJson(value));
    expect(hashOf(identity)).toBe(generatorHash('0'));
    // Mutate each leaf of a copy in turn: none is dropped by the canonical form (this walks the tools, the
    // message layout, the specimen prompt, the templates, the algorithm's parameters, the knobs, ...).
    const copy = JSON.parse(JSON.stringify(identity)) as Record<string, unknown>;
    expect(copy).toEqual(identity);
    let leaves = 0;
    const walk = (node: Record<string, unknown> | unknown[]): void => {
      for (const key of Object.keys(node)) {
        const holder = node as Record<string, unknown>;
        const value = holder[key];
        if (value !== null && typeof value === 'object') {
          walk(value as Record<string, unknown>);
          continue;
        }
        holder[key] = typeof value === 'string' ? `${value}x` : typeof value === 'number' ? value + 1 : typeof value === 'boolean' ? !value : 'x';
        expect(hashOf(copy), `${key} = ${JSON.stringify(value)}`).not.toBe(GENERATOR_HASH_V0);
        holder[key] = value;
        leaves++;
      }
    };
    walk(copy);
    expect(hashOf(copy)).toBe(GENERATOR_HASH_V0);
    expect(leaves).toBeGreaterThan(200);
  });

  it('changes when the history call id, the tool schema skeleton or the message structure changes', () => {
    const hashWith = (mutate: (identity: Record<string, any>) => void): string => {
      const copy = JSON.parse(JSON.stringify(generatorIdentity('0'))) as Record<string, any>;
      mutate(copy);
      return sha256Hex(canonicalJson(copy));
    };
    expect(hashWith(() => undefined)).toBe(GENERATOR_HASH_V0);
    const mutations: ((identity: Record<string, any>) => void)[] = [
      (i) => (i['templates'].historyCallId = 'hist_{i}'),
      (i) => (i['tools'][0].function.parameters.additionalProperties = true),
      (i) => (i['toolTemplate'].function.parameters.additionalProperties = true),
      (i) => (i['tools'][3].function.parameters.required = []),
      (i) => (i['tools'][7].type = 'tool'),
      (i) => (i['messageLayout'].messages.historyResult.role = 'function'),
      (i) => (i['messageLayout'].prompt = ['history', 'system', 'task']),
      (i) => (i['specimenMessages'][1].tool_calls[0].id = 'hist_1'),
      (i) => (i['algorithm'].distinctChainStages = 7),
    ];
    for (const mutate of mutations) expect(hashWith(mutate), String(mutate)).not.toBe(GENERATOR_HASH_V0);
  });

  it('holds exactly what generate uses: the full tool definitions, the history call ids and the message layout', () => {
    const identity = generatorIdentity('0') as {
      stages: string[];
      templates: { historyCallId: string };
      toolTemplate: ToolDefinition;
      tools: ToolDefinition[];
      messageLayout: { prompt: string[]; historyStep: string[]; messages: Record<string, unknown> };
    };
    // The tools: byte for byte what every task offers, and each the tool template filled in with its stage.
    const fill = <T>(template: T, values: Record<string, string>): T =>
      JSON.parse(JSON.stringify(template).replace(/\{([A-Za-z]+)\}/g, (m, k: string) => JSON.stringify(values[k] ?? m).slice(1, -1))) as T;
    expect(identity.tools).toEqual(identity.stages.map((stage) => fill(identity.toolTemplate, { stage })));
    for (const arm of [D1, D3, D1H3, { ...D1, knob: 'width', level: 4 } as ArmSpec]) {
      expect(JSON.stringify(generate(arm, 11).tools)).toBe(JSON.stringify(identity.tools));
    }
    // The prompt: rebuilt from the identity's layout, templates and the task's own fields, it is byte for
    // byte the task's messages, for treatments and for controls with 1 to 7 history calls.
    const rebuild = (t: ReturnType<typeof generate>): ChatMessage[] => {
      const out: ChatMessage[] = [];
      for (const part of identity.messageLayout.prompt) {
        if (part === 'history') {
          t.history.forEach((step, i) => {
            const callId = identity.templates.historyCallId.replace('{i}', String(i + 1));
            for (const p of identity.messageLayout.historyStep) {
              out.push(fill(identity.messageLayout.messages[p], { callId, tool: step.call.name, token: step.call.arguments.token, output: step.output }) as ChatMessage);
            }
          });
        } else {
          out.push(fill(identity.messageLayout.messages[part], { system: SYSTEM_PROMPT, task: renderTaskMessage(t.start, t.route, t.others) }) as ChatMessage);
        }
      }
      return out;
    };
    for (let seed = 0; seed < 20; seed++) {
      for (const arm of [D1, D3, { ...D3, level: 8 }, ...[2, 3, 4, 5, 6, 7, 8].map((h) => ({ ...D1H3, controlHistory: h }))]) {
        const t = generate(arm, seed);
        expect(JSON.stringify(rebuild(t))).toBe(JSON.stringify(t.messages));
      }
    }
    expect(generate({ ...D1H3, controlHistory: 8 }, 0).messages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []))).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map((i) => `history_${i}`),
    );
  });

  it('refuses an unknown version', () => {
    expect(() => generatorHash('1')).toThrow('generatorVersion must be one of 0, got "1"');
  });
});

// Regression pins: the goldens were written by this generator (gen-golden-tasks.ts), so they catch a
// change of output, not a wrong one; the independent checks are the rebuild tests in this file.
describe('generate: golden tasks (regression pin)', () => {
  it.each(golden.cases.map((c) => [`${c.arm.knob}:d${c.arm.level}${c.arm.controlHistory === null ? '' : `+h${c.arm.controlHistory}`} ${c.arm.split} ${c.arm.strictness} seed ${c.seed}`, c] as const))(
    '%s is byte-identical to the fixture',
    (_, c) => {
      expect(JSON.stringify(generate(c.arm, c.seed))).toBe(JSON.stringify(c.task));
    },
  );
});

describe('generate: one scenario for every arm of a seed', () => {
  it('d1, d3 and the control share the scenario id and the tools, and differ in task id', () => {
    for (let seed = 0; seed < 50; seed++) {
      const [a, b, c] = [generate(D1, seed), generate(D3, seed), generate(D1H3, seed)];
      expect(b.scenarioId).toBe(a.scenarioId);
      expect(c.scenarioId).toBe(a.scenarioId);
      expect(b.tools).toBe(a.tools);
      expect(c.tools).toBe(a.tools);
      expect(new Set([a.taskId, b.taskId, c.taskId]).size).toBe(3);
      expect(b.mappings).toEqual(a.mappings);
      // d1 plays the first stage of d3's route; the control plays d3's last stage after its first two.
      expect(a.solution[0]).toEqual(b.solution[0]);
      expect(c.history.map((h) => h.call)).toEqual(b.solution.slice(0, 2));
      expect(c.solution).toEqual(b.solution.slice(2));
      expect(c.answer).toBe(b.answer);
    }
  });

  it('is deterministic: the same inputs give byte-identical tasks', () => {
    for (const arm of [D1, D3, D1H3]) expect(JSON.stringify(generate(arm, 12345))).toBe(JSON.stringify(generate(arm, 12345)));
  });

  it('plays a chain: each solution call feeds the previous output, and the answer is the last output', () => {
    for (let seed = 0; seed < 20; seed++) {
      const t = generate({ ...D3, level: 8 }, seed);
      let token = t.start;
      for (const call of t.solution) {
        expect(call.arguments.token).toBe(token);
        token = stageOutput(t, call.name, token) as string;
      }
      expect(t.answer).toBe(token);
      expect(new Set(t.route).size).toBe(8);
    }
  });

  it('builds the prompt from the one template: system, history, then the task message', () => {
    const c = generate(D1H3, 0);
    expect(c.messages.map((m) => m.role)).toEqual(['system', 'assistant', 'tool', 'assistant', 'tool', 'user']);
    const d = generate(D3, 0);
    expect(d.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(d.messages[1]?.content).toBe(
      [
        `Start token: ${d.start}`,
        `Route: ${d.route.join(' -> ')}`,
        'Other open stages: (vacant), (vacant), (vacant)',
        'Pass the start token through the stages of the route in order, one tool call per stage, feeding each output to the next stage. Reply with the token the last stage returns.',
      ].join('\n'),
    );
  });

  it('gives every tool a JSON schema a chat API accepts: an object with a required string token and no other keys', () => {
    const t = generate(D1, 0);
    expect(t.tools.map((x) => x.function.name)).toEqual(['amber', 'basalt', 'cobalt', 'dune', 'ember', 'fjord', 'garnet', 'harbor'].map((s) => `stage_${s}`));
    for (const tool of t.tools) {
      expect(tool.type).toBe('function');
      expect(tool.function.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(tool.function.parameters).toEqual({
        type: 'object',
        properties: { token: { type: 'string', description: expect.any(String) as string } },
        required: ['token'],
        additionalProperties: false,
      });
    }
  });

  it('refuses bad arguments, naming them', () => {
    expect(() => generate(D1, -1)).toThrow('seed must be a non-negative safe integer, got -1');
    expect(() => generate(D1, 1.5)).toThrow('seed must be a non-negative safe integer, got 1.5');
    expect(() => generate(D1, '3' as never)).toThrow('seed must be a non-negative safe integer, got "3"');
    expect(() => generate({ ...D1, split: 'test' as never }, 0)).toThrow('arm.split must be one of train, dev, eval, got "test"');
    expect(() => generate({ ...D1, generatorVersion: '9' }, 0)).toThrow('arm.generatorVersion must be one of 0, got "9"');
    expect(() => generate({ ...D1, strictness: 'loose' as never }, 0)).toThrow('arm.strictness must be "strict" or "lenient", got "loose"');
  });
});

describe('splits', () => {
  it('draw disjoint scenarios for the same seed (and across all seeds drawn)', () => {
    const ids = { train: new Set<string>(), dev: new Set<string>(), eval: new Set<string>() };
    const starts = { train: new Set<string>(), dev: new Set<string>(), eval: new Set<string>() };
    for (let seed = 0; seed < 300; seed++) {
      const s = { train: drawScenario('0', 'train', seed), dev: drawScenario('0', 'dev', seed), eval: drawScenario('0', 'eval', seed) };
      expect(new Set([s.train.scenarioId, s.dev.scenarioId, s.eval.scenarioId]).size).toBe(3);
      for (const split of ['train', 'dev', 'eval'] as const) {
        ids[split].add(s[split].scenarioId);
        starts[split].add(s[split].start);
      }
    }
    for (const [a, b] of [['train', 'dev'], ['train', 'eval'], ['dev', 'eval']] as const) {
      expect([...ids[a]].filter((x) => ids[b].has(x))).toEqual([]);
      // Structural: each split draws its start token from its own third of the word list.
      expect([...starts[a]].filter((x) => starts[b].has(x))).toEqual([]);
    }
  });
});

describe('the width knob', () => {
  it('shows level - 1 distractors on a line of fixed length, from the same scenario', () => {
    for (const level of [1, 2, 3, 4]) {
      const t = generate({ ...D1, knob: 'width', level }, 5);
      expect(t.scenarioId).toBe(generate(D1, 5).scenarioId);
      expect(t.others.length).toBe(level - 1);
      expect(t.solution.length).toBe(1);
      expect(t.others).not.toContain(t.route[0]);
      const line = (t.messages[1]?.content as string).split('\n')[2] as string;
      expect(line.split(', ').length).toBe(3);
    }
  });
});

describe('the goal is never a token seen before it', () => {
  // Every arm of every declared level: depth 1..8, the width levels, and the controls d1+h2 .. d1+h8.
  const arms: ArmSpec[] = [
    ...KNOBS.depth.levels.map((level) => ({ ...D1, level })),
    ...KNOBS.width.levels.map((level) => ({ ...D1, knob: 'width' as const, level })),
    ...KNOBS.depth.levels.flatMap((level) => KNOBS.depth.controls(level).map((c) => ({ ...D1, level: c.level, controlHistory: c.controlHistory }))),
  ];

  it('the distinct-chain rule reaches the deepest chain any declared arm plays', () => {
    const { algorithm } = generatorIdentity('0') as { algorithm: { distinctChainStages: number } };
    const deepest = Math.max(...arms.map((a) => generate(a, 0).shape).map((sh) => sh.historyCalls + sh.depth));
    expect(deepest).toBe(8);
    expect(algorithm.distinctChainStages).toBeGreaterThanOrEqual(deepest);
  });

  it('differs from the start and from every earlier token of the chain, for every arm, split and 300 seeds', () => {
    for (const split of ['train', 'dev', 'eval'] as const) {
      for (let seed = 0; seed < 300; seed++) {
        for (const arm of arms) {
          const t = generate({ ...arm, split }, seed);
          // The whole chain: history inputs, the live start, each live output (the last is the answer).
          const chain = [...t.history.map((h) => h.call.arguments.token), t.start];
          let token = t.start;
          for (const call of t.solution) {
            token = stageOutput(t, call.name, token) as string;
            chain.push(token);
          }
          expect(token).toBe(t.answer);
          expect(chain.length).toBe(t.shape.historyCalls + t.shape.depth + 1);
          expect(new Set(chain).size, `${t.armId} ${split} seed ${seed}: ${chain.join(' ')}`).toBe(chain.length);
          expect(chain.slice(0, -1)).not.toContain(t.answer);
        }
      }
    }
  });

  it('so a lazy policy that answers the start token (or any earlier token) never passes', async () => {
    const lazy = (pick: (t: ReturnType<typeof generate>) => string): Policy => ({
      name: 'lazy',
      act: (ctx) => Promise.resolve({ kind: 'answer', text: pick(ctx.task) }),
    });
    const policies = [lazy((t) => t.start), lazy((t) => t.history[0]?.call.arguments.token ?? t.start), lazy((t) => t.history.at(-1)?.output ?? t.start)];
    let played = 0;
    for (let seed = 0; seed < 300; seed++) {
      for (const arm of arms) {
        for (const strictness of ['strict', 'lenient'] as const) {
          const a = { ...arm, strictness };
          const t = generate(a, seed);
          for (const policy of policies) {
            const r = await runEpisode(t, policy, { maxTurns: maxTurns(a, 4) });
            expect(r.outcome, `${t.armId} ${strictness} seed ${seed}`).toBe('failed');
            played++;
          }
        }
      }
    }
    expect(played).toBe(300 * arms.length * 2 * 3);
  });
});

describe('a task is deeply frozen', () => {
  it('refuses changes to its messages, tools and calls (strict mode), and a second generate is unaffected', () => {
    const t = generate(D1H3, 9);
    const before = JSON.stringify(t);
    const assign = (target: object, key: string, value: unknown): void => {
      (target as Record<string, unknown>)[key] = value;
    };
    expect(() => assign(t.messages[5] as object, 'content', 'x')).toThrow(TypeError);
    expect(() => assign(t.messages[0] as object, 'content', 'x')).toThrow(TypeError);
    const call = t.messages[1] as unknown as { tool_calls: { id: string; function: object }[] };
    expect(() => assign(call.tool_calls[0] as object, 'id', 'x')).toThrow(TypeError);
    expect(() => assign(call.tool_calls[0]!.function, 'arguments', '{}')).toThrow(TypeError);
    expect(() => (call.tool_calls as unknown[]).push({})).toThrow(TypeError);
    expect(() => (t.messages as ChatMessage[]).push({ role: 'user', content: 'x' })).toThrow(TypeError);
    expect(() => assign(t.tools[0]!.function.parameters, 'additionalProperties', true)).toThrow(TypeError);
    expect(() => assign(t.solution[0]!.arguments, 'token', 'x')).toThrow(TypeError);
    expect(() => assign(t.history[0]!, 'output', 'x')).toThrow(TypeError);
    expect(JSON.stringify(t)).toBe(before);
    expect(JSON.stringify(generate(D1H3, 9))).toBe(before);
  });

  it('an episode does not change the task it plays', async () => {
    const t = generate(D3, 9);
    const before = JSON.stringify(t);
    const r = await runEpisode(t, referencePolicy, { maxTurns: 8 });
    expect(r.outcome).toBe('passed');
    expect(JSON.stringify(t)).toBe(before);
  });
});

// A review (2026-12-07): a script calling generate() or countTokens() without its argument got the
// engine's "Cannot read properties of undefined (reading 'knob')" / "(reading 'matchAll')".
describe('a missing argument is named at the entry', () => {
  it('generate without an arm, countTokens without a string', async () => {
    const { countTokens } = await import('./tokens.js');
    expect(() => generate(undefined as never, 0)).toThrow(
      new TypeError('arm must be an ArmSpec object ({ knob, level, controlHistory, strictness, split, generatorVersion }), got undefined'),
    );
    expect(() => generate('depth:d3' as never, 0)).toThrow(/^arm must be an ArmSpec object .*, got "depth:d3"$/);
    expect(() => countTokens(undefined as never)).toThrow(new TypeError('countTokens: text must be a string, got undefined'));
    expect(() => countTokens(42 as never)).toThrow(new TypeError('countTokens: text must be a string, got 42'));
  });
});
