import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createTarget, taskEpisodeMeta } from './adapter.js';
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
