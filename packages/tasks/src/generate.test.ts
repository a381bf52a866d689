import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ArmSpec } from './arm-spec.js';
import { generate } from './generate.js';
import { generatorHash, generatorIdentity } from './generator-hash.js';
import { drawScenario, stageOutput } from './scenario.js';
import { D1, D1H3, D3 } from './__fixtures__/arms.js';

// Pinned on purpose: any change to the word list, templates, knob declarations, grader rules or algorithm
// parameters changes this hash and fails here. Regenerate the goldens (see __fixtures__/gen-golden-tasks.ts)
// only for an intended change.
const GENERATOR_HASH_V0 = 'be55445411c3b1e4e76dad561ca22f384ac0f56d1b616085b19fa57d9601f83a';

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

  it('refuses an unknown version', () => {
    expect(() => generatorHash('1')).toThrow('generatorVersion must be one of 0, got "1"');
  });
});

describe('generate: golden tasks', () => {
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
