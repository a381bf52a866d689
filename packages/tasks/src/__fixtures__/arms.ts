// Arms shared by the tests (not exported from the package).
import type { ArmSpec } from '../arm-spec.js';

export const CONTEXT = { strictness: 'strict', split: 'eval', generatorVersion: '0' } as const;
export const D1: ArmSpec = { knob: 'depth', level: 1, controlHistory: null, ...CONTEXT };
export const D3: ArmSpec = { knob: 'depth', level: 3, controlHistory: null, ...CONTEXT };
export const D1H3: ArmSpec = { knob: 'depth', level: 1, controlHistory: 3, ...CONTEXT };
