import { describe, expect, it } from 'vitest';
import type { ArmSpec } from './arm-spec.js';
import { armId } from './arm-id.js';
import { armCard } from './arm-card.js';
import { generate } from './generate.js';
import { KNOBS } from './knobs.js';
import { parseRegistration, registrationText } from './registration.js';
import { maxTurns, neededTurns } from './turns.js';
import { validatePreregistration } from './validate-preregistration.js';
import { CONTEXT } from './__fixtures__/arms.js';

// A knob is one declaration; the generator, the validator and the cards read it and agree.
describe.each(Object.values(KNOBS))('the $name knob declaration', (knob) => {
  const arms: ArmSpec[] = knob.levels.flatMap((level) => [
    { knob: knob.name, level, controlHistory: null, ...CONTEXT },
    ...knob.controls(level).map((c) => ({ knob: knob.name, ...c, ...CONTEXT })),
  ]);

  it('is what the generator builds: calls to play, distractors shown, history given', () => {
    for (const arm of arms) {
      const shape = arm.controlHistory === null ? knob.shape(arm.level) : knob.controlShape(arm.level, arm.controlHistory);
      const task = generate(arm, 11);
      expect(task.shape).toEqual(shape);
      expect(task.solution.length).toBe(shape?.depth);
      expect(task.others.length).toBe(shape?.distractors);
      expect(task.history.length).toBe(shape?.historyCalls);
      expect(task.neededTurns).toBe(neededTurns(arm));
    }
  });

  it('is what the validator accepts: every declared arm with its controls registers, the horizon is the largest maxTurns', () => {
    const text = registrationText({ knob: knob.name, ...CONTEXT, slack: 2, arms });
    const r = validatePreregistration(parseRegistration(text));
    expect(r.armIds).toEqual(arms.map(armId));
    expect(r.horizon).toBe(Math.max(...arms.map((a) => maxTurns(a, 2))));
  });

  it('is what the cards show', () => {
    for (const arm of arms.slice(0, 3)) {
      const card = armCard(arm, { slack: 3, seeds: { first: 0, count: 5 } });
      expect(card.knobDescription).toBe(knob.description);
      expect(card.neededTurns).toBe(neededTurns(arm));
      expect(card.maxTurns).toBe(neededTurns(arm) + 3);
    }
  });
});

describe('the width knob keeps one prompt length budget', () => {
  it('prompt tokens differ by at most 3 (under 0.5%) across levels on one seed', () => {
    for (let seed = 0; seed < 100; seed++) {
      const counts = KNOBS.width.levels.map((level) => armCard({ knob: 'width', level, controlHistory: null, ...CONTEXT }, { slack: 0, seeds: { first: seed, count: 1 } }).promptTokens.mean);
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(3);
    }
  });
});
