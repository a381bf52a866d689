// Writes columnar-diff.json: the reports of mixed-runs.ts's diffs as the diff computed them when it
// read rows through the Arrow table (commit f07ee6e of main, before the columnar reader was merged). Run it against that
// commit's sources. Re-pinned by this file against main (fourth session of 2026-12-05) when the limits
// of tables whose pairs disagree both ways began to read a change of d at psi^ + d: only limit_rise, limit_fall, limit,
// verdict, held_back_by and sentence changed, compared field by field with the reports before.
// Re-pinned again (fifth session of 2026-12-05) when the pooled --cluster score line moved from CR1 on G - 1 df to
// CR2 on Bell-McCaffrey df: only scores.method, scores.intervals_rule and the pooled object's standard_error, t, p,
// interval (and its method) changed, and standard_error_cr1 was added (df stayed 1: two clusters). And again when a
// one-way table in a diff whose other tables disagree both ways began to be read at psi^ + d: only limit_rise, limit,
// verdict (5 rows, all unchanged -> inconclusive), held_back_by and sentence changed. And when `dropped_by_run` and
// the coverage's `dropped_before_only` / `dropped_after_only` were added (nothing else changed).
// and (seventh session of 2026-12-05) for the sentence's largest limit, read over the conditions that did not count
// (where some counted), and the rows' `direction` under --sequential: compared with the outputs before, with
// those normalized, nothing else moved (one page's "and 2 had no room" now 1, the same scope).
// and (first session of 2026-12-06) for --full's coverage of runs that are not paired (`pairs` and `unmatched_*` 0,
// each run's episodes without an outcome): compared field by field, only /unpaired/coverage's pairs and unmatched_after moved.
// and (fourth session of 2026-12-06) for the report's `discordance_given` and `limits_discordance` (diff
// --discordance): compared with the outputs before, with those fields and the text's and page's
// `discordance` lines taken out, nothing else moved (compared field by field).
// and (the same session) for `next:` carrying the diff's reading where it is not the default (--q, --method,
// --power, --sequential): compared with those flags taken out of the next commands, nothing else moved.
// and (fifth session of 2026-12-06) for `next:` carrying --partial where a run was read partially: compared with
// it taken out, nothing else moved.
// and (a review, 2026-12-07) for the unpaired condition's limit, the larger of its rise and fall limits (it was the
// smaller): compared field by field, only /unpaired's four rows' `limit` where the two differ and its sentence's
// largest limit (0.401 -> 0.434) moved; no verdict.
// The original commit's sources:
//   git worktree add --detach /tmp/old f07ee6e && cp mixed-runs.ts gen-columnar-diff.ts /tmp/old/packages/prove/src/diff/__fixtures__/
//   ln -s $PWD/node_modules /tmp/old/node_modules
//   (cd /tmp/old && node --conditions=poisson-source --import tsx packages/prove/src/diff/__fixtures__/gen-columnar-diff.ts OUT.json)
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listRuns } from '../../store/list-runs.js';
import { mixedReports, writeMixedRuns } from './mixed-runs.js';

const store = await mkdtemp(join(tmpdir(), 'gen-columnar-'));
await writeMixedRuns(store);
const ids = (await listRuns(store)).map((m) => m.run_id);
const reports = await mixedReports(store, ids);
await writeFile(process.argv[2] ?? 'columnar-diff.json', `${JSON.stringify(reports, null, 1)}\n`);
await rm(store, { recursive: true, force: true });
