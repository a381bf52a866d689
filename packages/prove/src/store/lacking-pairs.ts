import type { RunManifest } from './manifest.js';
import { isImported, runLabel } from './manifest-problems.js';

/**
 * A run marked `complete` that holds fewer (condition, replicate) pairs than its design: its run.json was
 * edited (an interrupted run's status), or its writer closed it without them. diff, report and export
 * refuse it (E_PARTIAL); verify names how many pairs it lacks, and readEpisodes and episodes refuse it
 * (DamagedRunError). An import's design is what it holds.
 */
export function lackingProblem(manifest: RunManifest, pairs: number): string | null {
  if (manifest.status !== 'complete' || isImported(manifest)) return null;
  const design = (Array.isArray(manifest.conditions) ? manifest.conditions.length : 0) * (Number(manifest.replicates) || 0);
  if (pairs >= design) return null;
  return `${runLabel(manifest)}: its run.json marks it complete, and it holds ${pairs} of the ${design} (condition, replicate) pairs of its design: ${design - pairs} lack an episode; a complete run holds every pair, so the manifest was edited or damaged; poisson-prove resume ${manifest.run_id} runs the missing pairs.`;
}

