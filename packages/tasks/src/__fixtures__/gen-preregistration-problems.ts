// Regenerates preregistration-problems.json: what preregistrationProblems says of 400 registration
// documents, the seed's registration (and a width one) bent by one to four random mutations each.
//   npx tsx --conditions=poisson-source packages/tasks/src/__fixtures__/gen-preregistration-problems.ts
// A characterization pin: the golden was written by validate-preregistration.ts as it stood when the
// checks were split into one function per group (keys, scalars, arms, controls, horizon), so that the
// split could not change a problem, its words or their order. Regenerate it only when a change to the
// problems is intended, and say so in the change.
import { writeFileSync } from 'node:fs';
import { keyedRng, randomInt, type Rng } from '../internal/rng.js';
import { preregistrationProblems } from '../validate-preregistration.js';

const SEED = { knob: 'depth', strictness: 'strict', split: 'eval', generator_version: '0', slack: 4, horizon: 8, arms: ['depth:d1', 'depth:d3', 'depth:d1+h3'] };
const WIDTH = { knob: 'width', strictness: 'lenient', split: 'train', generator_version: '0', slack: 2, horizon: 4, arms: ['width:d1', 'width:d4'] };
const KEYS = ['knob', 'strictness', 'split', 'generator_version', 'slack', 'horizon', 'arms'];
const VALUES: readonly unknown[] = [null, true, 0, 3, -1, 1.5, 8, '', 'x', 'depth', 'width', 'breadth', 'strict', 'lenient', 'eval', 'train', 'dev', '0', '1', [], ['depth:d1'], {}];
const ARMS: readonly unknown[] = [
  'depth:d1', 'depth:d2', 'depth:d3', 'depth:d4', 'depth:d9', 'depth:d1+h2', 'depth:d1+h3', 'depth:d1+h4', 'depth:d2+h3',
  'width:d1', 'width:d3', 'width:d4', 'width:d9', 'width:d1+h3', 'breadth:d1', 'depth-3', 'depth:d0', 3, null,
];

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[randomInt(rng, xs.length)] as T;

function mutate(rng: Rng, d: Record<string, unknown>): void {
  switch (randomInt(rng, 7)) {
    case 0:
      delete d[pick(rng, KEYS)];
      break;
    case 1:
      d[pick(rng, ['colour', 'Knob', 'arm', 'horizon '])] = pick(rng, VALUES);
      break;
    case 2:
      d[pick(rng, KEYS)] = pick(rng, VALUES);
      break;
    case 3:
      d['slack'] = randomInt(rng, 8) - 1;
      break;
    case 4:
      d['horizon'] = randomInt(rng, 14);
      break;
    case 5:
      d['arms'] = Array.from({ length: randomInt(rng, 6) }, () => pick(rng, ARMS));
      break;
    default: {
      const arms = Array.isArray(d['arms']) ? [...(d['arms'] as unknown[])] : [];
      arms.push(pick(rng, arms.length > 0 && rng() < 0.3 ? arms : ARMS));
      d['arms'] = arms;
    }
  }
}

/** The documents, the same on every machine (seedrandom's Alea keyed by a fixed string). */
export function registrationDocuments(): unknown[] {
  const rng = keyedRng('preregistration-problems');
  const docs: unknown[] = [SEED, WIDTH, null, [], 'knob = "depth"', 7];
  while (docs.length < 400) {
    const d: Record<string, unknown> = structuredClone(rng() < 0.75 ? SEED : WIDTH);
    const n = 1 + randomInt(rng, 4);
    for (let i = 0; i < n; i++) mutate(rng, d);
    docs.push(d);
  }
  return docs;
}

/** What the golden records of one document: its problems, and the arm ids of the registration (or null). */
export function problemsRecord(doc: unknown): { problems: string[]; armIds: readonly string[] | null; horizon: number | null } {
  const { problems, registration } = preregistrationProblems(doc);
  return { problems, armIds: registration?.armIds ?? null, horizon: registration?.horizon ?? null };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const cases = registrationDocuments().map((doc) => ({ doc, ...problemsRecord(doc) }));
  writeFileSync(new URL('./preregistration-problems.json', import.meta.url), `[\n${cases.map((c) => JSON.stringify(c)).join(',\n')}\n]\n`);
}
