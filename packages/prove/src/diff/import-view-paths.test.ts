// Imported runs (inspect_ai, lm-evaluation-harness, promptfoo) diffed, compared, reported, exported and
// inspected, and the view page (its HTML, listed pairs and served pairs), give byte for byte what the row
// readers gave (import-view-paths.json, written by __fixtures__/gen-import-view-paths.ts on the code
// before imports and the view read columns). Regenerated once since, for the fix that lists two imports'
// discordant pairs by sample identity as the diff counts them (import-pairs.test.ts): `pairs`, `view` and
// `serve` of lm-eval, inspect and promptfoo no longer list the sample whose input differs (logic's sample
// 0, 40) as a pair, and their rise counts are the diff's. Regenerated a second time for the coverage of two
// imports counted by sample identity (import-pairs.test.ts): in the nine `diff` cases only `unmatched`
// changed (compared 117 -> 115, 77 -> 76: the samples whose input differs are left out on both sides, as
// the identity section says). Regenerated a third time for the page's script, which writes a pair's
// replicate as A/B when run B holds the sample at another index (test/view-browser.test.ts): the 14
// `view` and `serve` pages changed in their script alone, the same 601 characters in each (checked by
// diffing the pages of the code before and after). Regenerated a fourth time for `diff A B C`, which now
// states each candidate's pairs without a partner as `diff A B` does: the `compare` cases of lm-eval,
// inspect and promptfoo gained `unmatched` (the same figures as their `diff` cases) and a `coverage`
// line, nothing else. Regenerated a fifth time for the view page, which now states the pairs one run
// holds alone (a `coverage` line, and `unmatched` in its data) and writes "-" for a rate no pair gives
// (it wrote NaN): checked by stripping those from the new pages, which then hash as pinned before (the
// 5 view and serve pages of imports with unmatched pairs, and `view inspect real popularity`). Regenerated
// a sixth time for the page's score comparison and clustered reading, and view's own verb in its E_PARTIAL
// refusal: the 6 view and serve pages of runs with scores (and `view A B cluster`) hash as pinned before
// once their new "Scores" and "Clustered by" sections are stripped, and `view A C partial` changed only
// "to diff it" to "to view it". Regenerated a seventh time for `report` of two imports, which now
// computes with the identity pairing diff uses (report-identity.test.ts): the 7 `report` cases changed
// only by the `warning` lines added to the text (diff's, word for word) and, in the JSON, `diff.warnings`
// (those lines) and `diff.identity` (checked by stripping them: the rest is as pinned before). Regenerated
// an eighth time for the refusal of a paired diff with no pair that has an outcome in both runs
// (zero-pairs.test.ts): the 7 `diff`, `compare`, `pairs`, `report` and `view` cases of `inspect real
// popularity` (its first run holds no score) are now that E_DIFF refusal, and the `diff` and `view`/`serve`
// cases of lm-eval, inspect and promptfoo changed only in "(the target crashed)" becoming "(an error, or
// no score)" on their `dropped` and `score drops` lines (checked by replacing it back: equal to the pinned
// text). Regenerated a ninth time (2026-12-07) for the page's coverage line naming `poisson-prove ... diff A B
// --full` where the text diff says --full (full-command.test.ts): the 5 `view`/`serve` pages of lm-eval, inspect
// and promptfoo hash as pinned before with that command read back as --full. Regenerated a tenth time for the pairs panel's words
// for a condition with no pair (no-pairs.test.ts): the 13 pages equal those before with their <script> and the data
// rows' `,"no_pairs":null` taken out. Regenerated an eleventh time (it said "a ninth" here too) for
// inspect's refusal of an --event no row of the run holds (as diff refuses it; inspect-run.test.ts):
// `inspect inspect real popularity before` (its first run holds no outcome, and the case asks for `failed`)
// is now that E_EVENT refusal; compared line by line, no other case moved. Regenerated a twelfth time
// (fifth session of 2026-12-07) for the lm-eval input hash, which now covers each line's target
// (lm-eval-target.test.ts): the 13 lm-eval cases changed only in the lines' `input_hash` (inspect, pairs,
// the pages) and the identity rule's `before_hash` / `after_hash` (diff, compare, report), each text of
// the same length, compared line by line. Regenerated a thirteenth time (2026-12-07) for the served page's
// script, which shows a read only if its condition is still the one selected (view-browser.test.ts): the 13
// view and serve pages changed in their script alone (the outputs with the script masked equal those before).
// Regenerated a fourteenth time (2026-12-07) for the pairs panel's words where the only discordant pairs wait
// (--sequential): the same 13 pages changed in their script and the data rows' new `"n"` alone (both masked:
// equal to those before). Every other case is as the row readers gave it.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempStore } from './__fixtures__/build-run.js';
import { importViewOutputs, writeImportViewRuns } from './__fixtures__/import-view-paths.js';
import { pinOutputs, type PinnedOutput } from './__fixtures__/read-paths.js';

let dir: string;
let outputs: Record<string, PinnedOutput>;
let pinned: Record<string, PinnedOutput>;
beforeAll(async () => {
  dir = await tempStore();
  const store = join(dir, 'store');
  outputs = pinOutputs(await importViewOutputs(store, await writeImportViewRuns(store)));
  pinned = JSON.parse(await readFile(new URL('./__fixtures__/import-view-paths.json', import.meta.url), 'utf8')) as Record<string, PinnedOutput>;
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const HARNESSES = ['lm-eval', 'inspect', 'promptfoo', 'inspect real popularity', 'inspect real formats'];
const CASES = [
  ...HARNESSES.flatMap((h) => [`diff ${h}`, `diff ${h} full failed`, `diff ${h} scores`, `compare ${h}`, `pairs ${h}`, `export ${h}`, `inspect ${h} before`, `inspect ${h} after`]),
  'report lm-eval filter task', 'report lm-eval task', 'report inspect task', 'report promptfoo task topic', 'report promptfoo topic', 'report inspect real popularity task', 'report inspect real formats task',
  'view A B', 'view A B full limit', 'view B A no scores', 'view A B cluster', 'view B D unpaired', 'view A C partial', 'view lm-eval', 'view inspect', 'view promptfoo', 'view inspect real popularity',
  'serve A B', 'serve lm-eval', 'serve promptfoo', 'view evil 3 2', 'view evil 3 1 private',
];

describe('imports and the view page: outputs unchanged', () => {
  it('covers the same cases as the pinned outputs', () => {
    expect(Object.keys(outputs).sort()).toEqual([...CASES].sort());
    expect(Object.keys(pinned).sort()).toEqual([...CASES].sort());
  });
  it.each(CASES)('%s', (name) => {
    const now = outputs[name];
    const then = pinned[name];
    expect(then).toBeDefined();
    if (then?.text !== undefined) expect(now?.text).toBe(then.text);
    expect({ chars: now?.chars, sha256: now?.sha256 }).toEqual({ chars: then?.chars, sha256: then?.sha256 });
  });
});
