// Regenerates golden-tasks.json: the full task for a few (arm, seed) pairs, and the generator hash.
//   npx tsx --conditions=poisson-source packages/tasks/src/__fixtures__/gen-golden-tasks.ts
// Run it only when a change to the generator is intended; then bump the generator version or say in the
// change why tasks of version "0" may change, because registrations pin the hash.
import { writeFileSync } from 'node:fs';
import type { ArmSpec } from '../arm-spec.js';
import { generate } from '../generate.js';
import { generatorHash } from '../generator-hash.js';

export const GOLDEN_CASES: readonly { readonly arm: ArmSpec; readonly seed: number }[] = [
  { arm: { knob: 'depth', level: 1, controlHistory: null, strictness: 'strict', split: 'eval', generatorVersion: '0' }, seed: 0 },
  { arm: { knob: 'depth', level: 3, controlHistory: null, strictness: 'strict', split: 'eval', generatorVersion: '0' }, seed: 0 },
  { arm: { knob: 'depth', level: 1, controlHistory: 3, strictness: 'strict', split: 'eval', generatorVersion: '0' }, seed: 0 },
  { arm: { knob: 'depth', level: 3, controlHistory: null, strictness: 'lenient', split: 'train', generatorVersion: '0' }, seed: 3234607431 },
  { arm: { knob: 'width', level: 3, controlHistory: null, strictness: 'strict', split: 'dev', generatorVersion: '0' }, seed: 366625197 },
];

if (import.meta.url === `file://${process.argv[1]}`) {
  const doc = {
    generator_version: '0',
    generator_hash: generatorHash('0'),
    cases: GOLDEN_CASES.map(({ arm, seed }) => ({ arm, seed, task: generate(arm, seed) })),
  };
  const out = new URL('./golden-tasks.json', import.meta.url);
  writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
  console.log(`wrote ${out.pathname}: ${doc.cases.length} tasks, generator hash ${doc.generator_hash}`);
}
