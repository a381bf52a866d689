// Writes diff-output.json: what `poisson-prove diff` printed for diff-outputs.ts's cases before the diff's
// statistics, prose and `next:` line were split apart (issue 18; commit 3a58736); re-pinned (fourth
// session of 2026-12-05) for score rows' `constant` and for the limits of tables whose pairs disagree both ways began to read a change of d at psi^ + d (compared with the outputs before: only those fields and what is made of
// them), for the wording of the `dropped` and `score drops` lines ("(an error, or no score)"), and for
// the clustered rows' `min_p` and `too few clusters` (the cluster cases only; then at Holm's q/m); and
// (fifth session) for CR2 on Bell-McCaffrey df in the cluster cases (their method lines, intervals and pooled p),
// and for one-way tables read at psi^ + d when another table of the diff disagrees both ways (limits, verdicts
// unchanged -> inconclusive, and what is made of them), and for `dropped_by_run` and the coverage's
// `dropped_before_only` / `dropped_after_only` in the --json cases (the text cases did not change), and for
// the clustered rows' `constant` (cluster --json: `"constant": false` added, nothing else):
// and (seventh session of 2026-12-05) for intervals printed rounded outward (lower down, upper up, to the
// thousandth): compared with the outputs before, whitespace collapsed, only interval bounds moved, each
// outward by at most 0.001 (812 bounds over the three fixtures' 109 outputs, 35 outputs changed).
// and (seventh session of 2026-12-05) for the sentence's largest limit, read over the conditions that did not count
// (where some counted), and the rows' `direction` under --sequential: compared with the outputs before, with
// those normalized, nothing else moved (one page's "and 2 had no room" now 1, the same scope).
// and (first session of 2026-12-06) for runs that are not paired: no `coverage:` line or `unmatched` (every
// episode with an outcome is compared), and the `dropped` line counts each run's episodes without an
// outcome: compared with the outputs before, only the `unpaired` case moved, in those lines only.
// Then (the same session) --full's coverage of runs that are not paired: each run's episodes and those
// without an outcome, `pairs` and `unmatched_*` 0: compared with the outputs before, only the `unpaired`
// case's coverage table and those JSON fields moved.
// and (fourth session of 2026-12-06) for the report's `discordance_given` and `limits_discordance` (diff
// --discordance): compared with the outputs before, with those fields and the text's and page's
// `discordance` lines taken out, nothing else moved (compared field by field).
// and (the same session) for `next:` carrying the diff's reading where it is not the default (--q, --method,
// --power, --sequential): compared with those flags taken out of the next commands, nothing else moved.
// and (fifth session of 2026-12-06) for `next:` carrying --partial where a run was read partially: compared with
// it taken out, nothing else moved.
// and (sixth session of 2026-12-06) for the `discordance` line now printed when a table disagrees both ways
// (text, report and page): compared with the outputs before, those lines taken out, nothing else moved.
// and (sixth session of 2026-12-06) for the `seeds` line, `shared_seeds` and the heatmap's two lines of grids whose
// cells pool conditions of swept runs, and the omnibus / fault lines' caveat: compared with the outputs before,
// those taken out (and the heatmaps' y positions), nothing else moved.
// and (the session of 2026-12-06 evening, 19:20 UTC) for the intervals under --sequential, now the betting
// confidence sequence (poisson-stats pairedChangeConfidenceSequence) behind `unchanged`: compared with the
// outputs before, only the `sequential` cases moved: their intervals (wider), `intervals_rule`, two rows'
// `held_back_by` gaining 'interval' and the sentence's count of those (2 -> 3); no verdict word moved.
// and (the same evening, 19:45 UTC) for --sequential's p = 1 / E at the counts (it was 1 / max E over the pairs in
// replicate order): compared with the outputs before, only the `sequential` cases moved: the method line,
// four rows' p (none at or under q; no verdict moved) and the rows' `direction` (now the sign of rise - fall).
// and (the same evening, 20:20 UTC) for `method.interval` "confidence sequence" under --sequential (a review: it said
// "tango"): only that field of the `sequential --json` case moved.
// and (the same evening, 20:30 UTC) the 19:45 change reverted (p = 1 / E at the counts holds only where pairs finish
// in an order unrelated to their outcomes; a review): the `sequential` cases' method line, p and directions
// are again as before it; compared with the outputs before that change, nothing else moved.
// and (the same evening, 21:00 UTC) for the confidence sequence's bisection to 1e-10 (it was 1e-12): only the
// `sequential --json` case's interval bounds moved, each by under 3e-11 (the text prints them to 0.001).
// and (the night of 2026-12-06) for the confidence sequence's bounds found by Brent's method (to 1e-10, the end
// past the crossing) where bisection took the bracket's middle: only the `sequential --json` case's 24 interval
// bounds moved, each by under 7.4e-11.
// and (a review, 2026-12-07) for the unpaired condition's limit, the larger of its rise and fall limits (it was the
// smaller): only the two `unpaired` cases moved, four rows' `limit` and the sentence's largest limit (0.401 -> 0.434).
//   node --conditions=poisson-source --import tsx packages/prove/src/cli/__fixtures__/gen-diff-output.ts OUT.json
import { rm, writeFile } from 'node:fs/promises';
import { diffOutputs, diffOutputStores } from './diff-outputs.js';

const stores = await diffOutputStores();
await writeFile(process.argv[2] ?? 'diff-output.json', `${JSON.stringify(await diffOutputs(stores), null, 1)}\n`);
for (const s of Object.values(stores)) await rm(s.dir, { recursive: true, force: true });
