// Writes fragility-golden.json: fragility()'s result on each of fragility-cases.ts's seeded cases, as the
// search gave them before it was split into an iterator and strategies (issue 18; commit 3a58736):
// Re-pinned (fourth session of 2026-12-05) when the limits of tables whose pairs disagree both ways
// began to read a change of d at psi^ + d: 17 of the 400 cases changed, 7 of them from no significant
// change to inconclusive (the others' counts and descriptions), none the other way.
// Re-pinned (sixth session of 2026-12-05) when the cases began to read `bothWays` from their tables as the
// diff does (fragility-cases.ts `diffContext`, `wordOf`) and the search to re-read every limit when a
// change flips it: 3 of the 400 cases changed, no word; case 305's count from 1 to 2 (no single change
// alters the word once `bothWays` is read from the tables: checked by trying every one), cases 77 and
// 275 their descriptions only (another change of the same count found first).
//   node --conditions=poisson-source --import tsx packages/prove/src/diff/__fixtures__/gen-fragility-golden.ts OUT.json
import { writeFile } from 'node:fs/promises';
import { fragility } from '../fragility.js';
import { fragilityCases, GOLDEN_COUNT, GOLDEN_SEED } from './fragility-cases.js';

const results = fragilityCases(GOLDEN_SEED, GOLDEN_COUNT).map((c) => {
  const f = fragility(c.conditions, c.events, c.word, c.ctx);
  return [c.word, f.count, f.description];
});
await writeFile(process.argv[2] ?? 'fragility-golden.json', `[\n${results.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`);
