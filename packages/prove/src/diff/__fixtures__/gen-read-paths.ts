// Writes read-paths.json: the outputs of export, report and inspect on the runs of read-paths.ts, as the
// row-based readers gave them (commit 3a58736, before the columnar export, report and inspect); "report I1 I2"
// re-pinned when the method line of imported runs began to name their pairing by identity; every case
// re-pinned when score rows gained `constant` (fourth session of 2026-12-05), and "export A B cluster" and
// "export B cluster" then hold a CR1 standard error of 0 (a point interval) where the groups' clusters
// agree up to rounding, where they held ~1e-17 (R's t.test rule, poisson-stats clusterRobustMean);
// and again when the limits of tables whose pairs disagree both ways began to read a change of d at psi^ + d (the
// reports' limits, verdicts and sentences; the JSON compared field by field before, nothing else moved).
// "report I1 I2" re-pinned when report began to compute with the identity pairing diff uses: only its
// `warning` lines, and `diff.warnings` and `diff.identity` in its JSON, were added. Then "export B
// cluster" (an SE of 5e-16 on 0/1 values now 0, by the scale rule) and "report A B slack cluster"
// (`min_p`, and `too few clusters` for 2 clusters) moved, nothing else; then "report A B C panels" gained
// its coverage line and `unmatched` (report said nothing of the pairs it did not compare); then the
// inspect cases gained `"writer": null` (a running run's writer, alive or gone), nothing else; then the
// report cases gained diff's `dropped` line, and report's clustered cells `too few clusters` at Holm's q/m;
// then the four --cluster cases (view, export, report) moved from CR1 on G - 1 df to CR2 on Bell-McCaffrey df;
// then the one-way tables of diffs whose other tables disagree both ways were read at psi^ + d (limits only);
// then the diff's JSON gained `dropped_by_run` and its coverage `dropped_before_only` and `dropped_after_only`;
// then the clustered rows gained `constant` (report A B slack cluster: `"constant": false` only); then the
// heatmaps' captions name the family as the cells tested (`N cells tested`: the svg text only); then
// the lm-eval results files gained `higher_is_better` (sixth session of 2026-12-05), which moved the
// lm-eval runs' target_id digests and so their names in "runs" and "report I1 I2" (compared field by
// field: the names alone) and the sha256 of "export I1 I2" and "export I1 I2 by" (their chars unchanged).
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
// and (first session of 2026-12-06) for runs that are not paired ("report A D unpaired"): the `dropped` line
// counts each run's episodes without an outcome, and the warning reads them with Fisher's exact test,
// not McNemar's on pairs: compared with the outputs before, those two lines (and the warning in the
// JSON) moved, nothing else.
// and (second session of 2026-12-06) for limits below 0.1 kept to three significant digits (they were rounded to
// three decimals): compared with the outputs before, only "report A B task" moved, its JSON's limits 0.088 -> 0.0882.
// and (fourth session of 2026-12-06) for the report's `discordance_given` and `limits_discordance` (diff
// --discordance): compared with the outputs before, with those fields and the text's and page's
// `discordance` lines taken out, nothing else moved (compared field by field).
// and (the same session) for report --sequential: the report's looks line says "report --sequential reads it
// anytime-valid" where it said "diff --sequential reads it anytime-valid (report has no --sequential)";
// compared with that phrase put back, the three report texts are as before.
// and (the same session) for `next:` carrying the diff's reading where it is not the default (--q, --method,
// --power, --sequential): compared with those flags taken out of the next commands, nothing else moved.
// and (fifth session of 2026-12-06) for scores that restate their outcomes (1 passed, 0 otherwise: these imports'),
// no longer compared by default: compared with `scores`, `scores_restated` and the sentence's scores clause taken
// out of the JSON, and the score section's lines out of the text, nothing else moved (the new `scores` line added).
// and (the same session) for the threshold's note of imports given no --max-mde ("the imports' default, not a threshold anyone chose ..."
// where it read "recorded at sweep time by the runs"): compared with the old note put back, nothing else moved.
// and (sixth session of 2026-12-06) for the `discordance` line now printed when a table disagrees both ways
// (text, report and page): compared with the outputs before, those lines taken out, nothing else moved.
// and (sixth session of 2026-12-06) for the `seeds` line, `shared_seeds` and the heatmap's two lines of grids whose
// cells pool conditions of swept runs, and the omnibus / fault lines' caveat: compared with the outputs before,
// those taken out (and the heatmaps' y positions), nothing else moved.
// and (sixth session of 2026-12-06, later) for report cells that pool conditions of a sweep, read with the seed as
// the unit (seed-cells.ts): compared field by field with the outputs before, only those cells' p, p_holm, p_bh,
// counts_toward_verdict, flagged, interval, limits, verdict, held_back_by (and direction), the diff's verdict,
// sentence, intervals_rule and limits_rule, the grid's seed_cells, the seeds line, the heatmaps and the page's note moved.
// and (evening of 2026-12-06) for the partial line's advice (read this and every later look with --sequential): the
// two export cases of a partial run; compared with the old words put back, nothing else moved.
// and (third session of 2026-12-07) for the looks clause, which names stopping at the first no significant change
// too: the 3 report texts equal the pinned with the old words put back; the 2 hashed cases grew by 40 characters a
// clause (160, 80), nothing else.
// and (a review, 2026-12-07) for the unpaired condition's limit, the larger of its rise and fall limits (it was the
// smaller): "report A D unpaired" only, its JSON's `limit` fields and the sentence's largest limit (0.233 -> 0.318),
// compared field by field with the outputs before; no verdict moved.
// and (fifth session of 2026-12-07) for the lm-eval input hash covering each line's target: "report I1 I2" and
// "inspect I1" only, in the identity rule's before_hash / after_hash and the rows' input_hash, compared line by line.
//   node --conditions=poisson-source --import tsx packages/prove/src/diff/__fixtures__/gen-read-paths.ts
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pinOutputs, readPathOutputs, writeReadPathRuns } from './read-paths.js';

const dir = await mkdtemp(join(tmpdir(), 'prove-read-paths-'));
try {
  const store = join(dir, 'store');
  const runs = await writeReadPathRuns(store);
  const out = await readPathOutputs(store, runs);
  await writeFile(new URL('./read-paths.json', import.meta.url), `${JSON.stringify(pinOutputs(out), null, 1)}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
