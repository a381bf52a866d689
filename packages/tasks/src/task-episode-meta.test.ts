import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createTarget, taskEpisodeMeta } from './adapter.js';
import { taskEpisodeMetaBuilder } from './task-episode-meta.js';
import { registrationText } from './registration.js';
import { sha256Hex } from './internal/sha256.js';
import { parseArmId } from './arm-id.js';
import { runEpisode } from './episode.js';
import { generate } from './generate.js';
import { generatorHash } from './generator-hash.js';
import { referencePolicy } from './reference-policy.js';
import { parseRegistration } from './registration.js';
import { countTokens, renderContext } from './tokens.js';
import { maxTurns } from './turns.js';
import { validatePreregistration } from './validate-preregistration.js';
import { SEED_REGISTRATION, SEED_REGISTRATION_SHA256 } from './__fixtures__/registration.js';

const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const registration = validatePreregistration(parseRegistration(SEED_REGISTRATION));
const context = { strictness: 'strict', split: 'eval', generatorVersion: '0' } as const;
const D1H3 = parseArmId('depth:d1+h3', context);
const D3 = parseArmId('depth:d3', context);
const SEED = 366625197;

describe('taskEpisodeMeta', () => {
  it('gives the TASKS.md fields in order, with prompt_tokens the o200k_base count of the prompt', () => {
    const task = generate(D1H3, SEED);
    const meta = taskEpisodeMeta({ arm: D1H3, task, registrationSha256: SEED_REGISTRATION_SHA256, sampledCalls: 1 });
    expect(Object.keys(meta)).toEqual(['arm_id', 'knob', 'level', 'control_history', 'scenario_id', 'task_id', 'split', 'strictness', 'pin', 'sampled_calls', 'prompt_tokens']);
    expect(meta).toEqual({
      arm_id: 'depth:d1+h3',
      knob: 'depth',
      level: 1,
      control_history: 3,
      scenario_id: task.scenarioId,
      task_id: task.taskId,
      split: 'eval',
      strictness: 'strict',
      pin: { generator_version: '0', generator_hash: generatorHash('0'), registration_sha256: SEED_REGISTRATION_SHA256, package_version: PACKAGE_VERSION },
      sampled_calls: 1,
      prompt_tokens: countTokens(renderContext(task.tools, task.messages)),
    });
    expect(Object.isFrozen(meta)).toBe(true);
    expect(Object.isFrozen(meta.pin)).toBe(true);
  });

  it("is the reference target's meta on the same seed", async () => {
    const target = createTarget({ arm: D3, registration, registrationSha256: SEED_REGISTRATION_SHA256, policy: referencePolicy });
    const cfg = { seed: SEED, replicate_index: 0, slack: 4, horizon: 8, strictness: 'strict', generator_hash: generatorHash('0') };
    const fromTarget = (await target(cfg)).meta;
    const task = generate(D3, SEED);
    const result = await runEpisode(task, referencePolicy, { maxTurns: maxTurns(D3, 4) });
    const built = taskEpisodeMeta({ arm: D3, task, registrationSha256: SEED_REGISTRATION_SHA256, sampledCalls: result.calls.length });
    expect(JSON.stringify(fromTarget)).toBe(JSON.stringify(built));
    expect(built.sampled_calls).toBe(3);
  });

  it("refuses another arm's task, a malformed sha256 and a bad call count", () => {
    const task = generate(D3, SEED);
    const ok = { arm: D3, task, registrationSha256: SEED_REGISTRATION_SHA256, sampledCalls: 3 };
    expect(() => taskEpisodeMeta({ ...ok, arm: D1H3 })).toThrow(RangeError);
    expect(() => taskEpisodeMeta({ ...ok, arm: D1H3 })).toThrow(/task must be generated for arm depth:d1\+h3 .* got a task of arm depth:d3/);
    expect(() => taskEpisodeMeta({ ...ok, registrationSha256: 'AB'.repeat(32) })).toThrow(/registrationSha256 must be the registration's sha256 as 64 lower-case hex digits, got "ABAB/);
    expect(() => taskEpisodeMeta({ ...ok, sampledCalls: -1 })).toThrow(/sampledCalls must be a non-negative integer/);
    expect(() => taskEpisodeMeta({ ...ok, sampledCalls: 1.5 })).toThrow(TypeError);
  });
});

describe('taskEpisodeMetaBuilder: one arm and registration, made once per target', () => {
  const D1 = parseArmId('depth:d1', context);
  const OTHER_SHA256 = 'ab'.repeat(32);

  it('builds what taskEpisodeMeta builds, field by field and in JSON, for every arm and seed', () => {
    for (const arm of [D1, D3, D1H3]) {
      const build = taskEpisodeMetaBuilder(arm, SEED_REGISTRATION_SHA256);
      for (let seed = 0; seed < 40; seed++) {
        const task = generate(arm, seed * 7919 + 1);
        const built = build(task, seed % 4);
        const plain = taskEpisodeMeta({ arm, task, registrationSha256: SEED_REGISTRATION_SHA256, sampledCalls: seed % 4 });
        expect(built).toEqual(plain);
        expect(JSON.stringify(built)).toBe(JSON.stringify(plain));
        expect(Object.isFrozen(built) && Object.isFrozen(built.pin)).toBe(true);
      }
    }
  });

  it('keeps its arm and registration: builders of other arms and registrations, called in turn, never mix', () => {
    const builders = [
      [D3, SEED_REGISTRATION_SHA256],
      [D1H3, SEED_REGISTRATION_SHA256],
      [D3, OTHER_SHA256],
      [D1, OTHER_SHA256],
    ] as const;
    const made = builders.map(([arm, sha]) => ({ arm, sha, build: taskEpisodeMetaBuilder(arm, sha) }));
    for (let seed = 0; seed < 12; seed++) {
      for (const { arm, sha, build } of made) {
        const task = generate(arm, seed);
        const meta = build(task, 1);
        expect([meta.arm_id, meta.pin.registration_sha256, meta.task_id, meta.prompt_tokens]).toEqual([
          taskEpisodeMeta({ arm, task, registrationSha256: sha, sampledCalls: 1 }).arm_id,
          sha,
          task.taskId,
          countTokens(renderContext(task.tools, task.messages)),
        ]);
      }
    }
  });

  it('refuses a malformed sha256 when made, and another arm\'s task or a bad count when called', () => {
    expect(() => taskEpisodeMetaBuilder(D3, 'AB'.repeat(32))).toThrow(/registrationSha256 must be the registration's sha256 as 64 lower-case hex digits/);
    const build = taskEpisodeMetaBuilder(D3, SEED_REGISTRATION_SHA256);
    expect(() => build(generate(D1H3, SEED), 1)).toThrow(/task must be generated for arm depth:d3 .* got a task of arm depth:d1\+h3/);
    expect(() => build(generate(D3, SEED), -1)).toThrow(/sampledCalls must be a non-negative integer/);
  });

  it('targets of two registrations, called in turn on the same seeds, each pin their own registration', async () => {
    const targets = [4, 5].map((slack) => {
      const text = registrationText({ knob: 'depth', strictness: 'strict', split: 'eval', generatorVersion: '0', slack, arms: ['depth:d1', 'depth:d3', 'depth:d1+h3'] });
      const reg = validatePreregistration(parseRegistration(text));
      const sha = sha256Hex(text);
      return { sha, slack, horizon: reg.horizon, fn: createTarget({ arm: D3, registration: reg, registrationSha256: sha, policy: referencePolicy }) };
    });
    expect(targets[0]?.sha).not.toBe(targets[1]?.sha);
    for (let seed = 0; seed < 6; seed++) {
      for (const t of targets) {
        const cfg = { seed, replicate_index: seed, slack: t.slack, horizon: t.horizon, strictness: 'strict', generator_hash: generatorHash('0') };
        const meta = (await t.fn(cfg)).meta as { pin: { registration_sha256: string }; task_id: string };
        expect(meta.pin.registration_sha256).toBe(t.sha);
        expect(meta.task_id).toBe(generate(D3, seed).taskId);
      }
    }
  });
});
