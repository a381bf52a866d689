import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { problemsRecord, registrationDocuments } from './__fixtures__/gen-preregistration-problems.js';

// The golden was written by the checks as they stood before they were split into one function per group
// (see the generator beside it): the same problems, in the same order, with the same words.
const golden = JSON.parse(readFileSync(new URL('./__fixtures__/preregistration-problems.json', import.meta.url), 'utf8')) as {
  doc: unknown;
  problems: string[];
  armIds: string[] | null;
  horizon: number | null;
}[];

describe('preregistrationProblems over 400 bent registrations', () => {
  const docs = registrationDocuments();

  it('reads the documents the golden was written from', () => {
    expect(docs).toEqual(golden.map((c) => c.doc));
  });

  it('says of each exactly what the golden says, in the same order', () => {
    const differ = docs.map((doc, i) => ({ i, ...problemsRecord(doc) })).filter(({ i, ...got }) => JSON.stringify(got) !== JSON.stringify({ problems: golden[i]?.problems, armIds: golden[i]?.armIds, horizon: golden[i]?.horizon }));
    expect(differ).toEqual([]);
    // The corpus reaches every group of checks.
    const all = golden.flatMap((c) => c.problems).join('\n');
    for (const words of ['unknown key', 'missing key', 'is not a known knob', 'is not a non-negative integer', 'is malformed', 'is listed', 'needs its control', 'is the control of', 'differs from the largest maxTurns', 'is not a positive integer', 'must be a table of keys']) {
      expect(all).toContain(words);
    }
    expect(golden.filter((c) => c.armIds !== null).length).toBeGreaterThan(1);
  });
});
