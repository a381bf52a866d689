// Writes import-view-paths.json: the outputs of import-view-paths.ts as the row readers gave them (the
// imports read by readRunForDiff, the view page from rows), before imports and the view read columns.
// Re-pinned (fourth session of 2026-12-05) for score rows' `constant`, then for the limits that read a
// change of d at psi^ + d where pairs disagree both ways (each time compared with the outputs before: only
// those fields, and the verdicts, sentences and pages made from them, changed); and for inspect's
// `writer` (null for these runs: only that line was added); and for report's `dropped` line and the
// clustered `too few clusters` at Holm's q/m (only those lines); and for the clustered rows' CR2 interval on
// Bell-McCaffrey df (the page's clustered data: its method text and `df`); and for one-way tables read at
// psi^ + d when another table of the diff disagrees both ways (only limits and sentences changed); and for
// `dropped_by_run` and the coverage's `dropped_before_only` / `dropped_after_only` (the JSON cases and pages);
// and (fifth session of 2026-12-05) for the view page's note under the discordant pairs, which said "No
// private details" while an inspect import's meta holds the model's answer (the pages' note alone); and for
// "view B D unpaired": its column holds each run's episodes (`N / M`, headed so), not the before run's as pairs;
// and for the heatmaps' captions, which name the family as the cells tested (`N cells tested`), the svg text only;
// and (sixth session of 2026-12-05) for limits of too few pairs, `too few pairs` where they read `no room`
// (compared with the outputs before: with the new words read back as the old, only the padding of the
// text tables' columns differs); and for promptfoo's input hash, which covers the test case's grading
// (assert, threshold, options) beside its vars: the promptfoo cases' input_hash values alone (compared line
// by line with the 64-hex hashes masked: nothing else; the view and serve pages' lengths unchanged).
// and (seventh session of 2026-12-05) for intervals printed rounded outward (lower down, upper up, to the
// thousandth): compared with the outputs before, whitespace collapsed, only interval bounds moved, each
// outward by at most 0.001 (812 bounds over the three fixtures' 109 outputs, 35 outputs changed).
// and (seventh session of 2026-12-05) for the sentence's largest limit, read over the conditions that did not count
// (where some counted), and the rows' `direction` under --sequential: compared with the outputs before, with
// those normalized, nothing else moved (one page's "and 2 had no room" now 1, the same scope).
// and (seventh session of 2026-12-05) for the looks clause naming a run's retries (`resume --retry-errors`): the
// sentences' clause, report's `looks` line and `looks.*.retries` in JSON; compared with them removed, nothing else.
// and (seventh session of 2026-12-05) for the sentence's scores clause (`; scores: N lower, M higher (paired t ...)`,
// when a score row counted): compared with the clause removed (and its HTML-escaped form), nothing else moved.
// and (first session of 2026-12-06) for the view page's `dropped` line, now the text diff's (droppedText):
// the 11 view and serve pages with drops gained "(an error, or no score)" on that line; compared with it
// removed, each hashes as pinned before, and nothing else moved (51 of the 62 outputs unchanged).
// and (fourth session of 2026-12-06) for the report's `discordance_given` and `limits_discordance` (diff
// --discordance): compared with the outputs before, with those fields and the text's and page's
// `discordance` lines taken out, nothing else moved (compared field by field).
// and (the same session) for `next:` carrying the diff's reading where it is not the default (--q, --method,
// --power, --sequential): compared with those flags taken out of the next commands, nothing else moved.
// and (fifth session of 2026-12-06) for scores that restate their outcomes (1 passed, 0 otherwise: these imports'),
// no longer compared by default: compared with `scores`, `scores_restated` and the sentence's scores clause taken
// out of the JSON, and the score section's lines out of the text, nothing else moved (the new `scores` line added).
// and (the same session) for the threshold's note of imports given no --max-mde ("the imports' default, not a threshold anyone chose ..."
// where it read "recorded at sweep time by the runs"): compared with the old note put back, nothing else moved.
// and (the same session) for the pages' Scores heading saying the scores restate the outcomes: only the view and
// serve pages moved, each by the same 174 characters.
// and (the same session) for the heatmap notes' command naming the store and both runs, shell-quoted: only the
// view and serve pages moved, by the same length per pair of runs (116, 60 or 92 characters).
// and (the same session) for the page script's line where --limit 0 lists no pair: every page moved by the same
// 213 characters (the script), nothing else.
// and (sixth session of 2026-12-06) for the `discordance` line now printed when a table disagrees both ways
// (text, report and page): compared with the outputs before, those lines taken out, nothing else moved.
// and (sixth session of 2026-12-06) for the `seeds` line, `shared_seeds` and the heatmap's two lines of grids whose
// cells pool conditions of swept runs, and the omnibus / fault lines' caveat: compared with the outputs before,
// those taken out (and the heatmaps' y positions), nothing else moved.
// and (sixth session of 2026-12-06, later) for report cells that pool conditions of a sweep, read with the seed as
// the unit (seed-cells.ts): compared field by field with the outputs before, only those cells' p, p_holm, p_bh,
// counts_toward_verdict, flagged, interval, limits, verdict, held_back_by (and direction), the diff's verdict,
// sentence, intervals_rule and limits_rule, the grid's seed_cells, the seeds line, the heatmaps and the page's note moved.
// and (sixth session of 2026-12-06, at its end) for the page's script and style (the sort headers and rows reached
// from the keyboard, aria-sort; the filter hiding the forest's lines, whose rows in the page's data now carry their
// verdict): compared with the pages before, their <script> and <style> and those verdicts taken out, nothing moved.
// and (evening of 2026-12-06) for the page's fragility, truncated, tests and discordance lines, now the text diff's
// (format-text.ts fragilityText, truncatedText, testsText; discordanceText): compared with the outputs before, those
// lines taken out, nothing else moved (13 of the 62 outputs changed, all pages).
// and (the same evening) for the page script showing bidirectional controls as code points (internal/bidi.ts): compared
// with the pages before, their <script> taken out, nothing moved (the 13 pages).
// and (the same evening) for the warning that two imports are one inspect log in two formats (log_id): the five
// "inspect real formats" cases (a .eval against its .json) gained that warning; compared line by line, nothing else moved.
// and (the same evening) for the page script's natural sort and "-" last, and the footer's contrast: compared with the
// pages before, their <script> and <style> taken out, nothing moved (the 13 pages).
// and (the same evening) for that warning's words and the log id's digest of the scores: the five cases' warning
// alone, compared with the digest taken out and the old words put back: nothing else moved.
// and (the same evening) for the page script's bidi class written as escapes from internal/bidi.ts (it held the raw
// characters): compared with the pages before, their <script> taken out, nothing moved (the 13 pages).
// and (evening of 2026-12-06, 19:40 UTC) for the looks clause of a run whose errors were run again: --sequential's
// p-value reads the counts (whatever order the pairs came in), so it covers retries and the clause says
// "--sequential reads it anytime-valid"; compared with the old clause put in place of the new, nothing else moved.
// and (the same evening, 19:55 UTC) for the forest's lines as named buttons (role="button", aria-label) in an svg of
// role "group" (it was "img"): compared with those attributes taken out, nothing else moved.
// and (the same evening, 20:00 UTC) for the Scores table's rows carrying their condition (class by-condition,
// data-condition) and the page script's lines that filter them: compared with those taken out, nothing else moved.
// and (the same evening, 20:30 UTC) for the 19:40 retry clause reverted (--sequential does not cover a retry again),
// the forest's names of runs that are not paired without "shows its discordant pairs", and the page script's
// Scores filter keeping every row for an event's name: compared with those put back, nothing else moved.
// and (the same evening, 21:00 UTC) for the page script's Scores filter reading the text as the conditions table does:
// compared with the pages' <script> taken out, nothing moved.
// and (the night of 2026-12-06) for the page script's pairs panel saying how many discordant pairs wait for a
// later read under --sequential: compared with the pages' <script> taken out, nothing moved (13 of 62 outputs changed).
// and (third session of 2026-12-07) for the several-candidate table's cells, which now carry what held a verdict back
// and the BH flag as the two-run table's do (flag-text.test.ts), and its `cells` line saying so: compared line by line,
// only the 4 `compare` cases' table rows and `cells` line moved.
// and (a later session of 2026-12-07) for the page's coverage line, which names `poisson-prove ... diff A B --full` where the
// text diff says --full (full-command.test.ts): with that command read back as --full, the 5 changed view and serve pages
// hash as pinned before (57 of 62 outputs unchanged).
// and (the same session) for the pairs panel's words for a condition with no pair (n = 0; no-pairs.test.ts): the page's
// data rows carry `no_pairs` and its script reads it; compared with the pages' <script> and `,"no_pairs":null` taken out,
// nothing moved (13 of 62 outputs changed).
// and (2026-12-07) for inspect refusing an --event no row of the run holds, as diff does: only `inspect inspect
// real popularity before` moved (its first run holds no outcome: now the E_EVENT refusal); compared line by line.
// and (third session of 2026-12-07, later) for the looks clause, which now says that stopping at the first no
// significant change overstates the evidence too: the 5 view/serve pages of runs with a retry changed by that
// phrase alone (40 characters; compared with the phrase taken out, equal).
//   node --conditions=poisson-source --import tsx packages/prove/src/diff/__fixtures__/gen-import-view-paths.ts
// and (sixth session of 2026-12-07) for "view B D unpaired": the page's hints under "Change per condition" and
// "Discordant pairs" and its empty pairs panel say the runs are not paired (why) and have no discordant pairs:
// compared with the page before (its markup split at tags), only those three lines moved.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importViewOutputs, writeImportViewRuns } from './import-view-paths.js';
import { pinOutputs } from './read-paths.js';

const dir = await mkdtemp(join(tmpdir(), 'prove-import-view-'));
try {
  const store = join(dir, 'store');
  const runs = await writeImportViewRuns(store);
  const out = await importViewOutputs(store, runs);
  await writeFile(new URL(process.argv[2] ?? './import-view-paths.json', import.meta.url), `${JSON.stringify(pinOutputs(out), null, 1)}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
