import type { RunManifest } from './manifest.js';

/**
 * Where an imported run came from, as `inspect` and the run page say it: the harness and its version,
 * the model (and promptfoo's provider and prompt), the scorer or metric the outcome was read from, whether
 * the log was of a run that finished, and each file with the start of its sha256. Null for a run that
 * was not imported.
 *
 * @param m - the run's manifest.
 * @returns e.g. `lm-eval 0.4.8, model m, outcome from acc; samples_x.jsonl (sha256 392d…)`, or null.
 */
export function importText(m: Pick<RunManifest, 'import'>): string | null {
  const i = m.import;
  if (i === undefined) return null;
  const files = i.files.map((f) => `${f.name} (sha256 ${f.sha256.slice(0, 12)}…)`).join(', ');
  const who = i.provider !== null ? `; provider ${i.provider}, prompt ${i.prompt ?? ''}` : '';
  return `${i.harness}${i.harness_version !== null ? ` ${i.harness_version}` : ''}, model ${i.model}${who}, outcome from ${i.scorer ?? '-'}${i.complete ? '' : ' (a log of a run that did not finish)'}; ${files}`;
}

/**
 * That a run written before checksums is read unverified, and how to record its parts, as the CLI's
 * note and the run page say it. Null for a run whose parts are recorded.
 *
 * @param m - the run's manifest.
 */
export function unverifiedText(m: Pick<RunManifest, 'parts' | 'run_id' | 'name'>): string | null {
  if (Array.isArray(m.parts)) return null;
  return `run ${m.run_id} ("${m.name}") is unverified: written before checksums; poisson-prove verify --adopt ${m.run_id} checks its rows and records them.`;
}
