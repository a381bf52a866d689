import type { RunInspection } from './inspect-run.js';

/**
 * What a `running` run's writer is, in words: `no live writer: its process was killed or crashed` when
 * no live process holds its lock, `its writer is alive` when one does; null for any other status.
 *
 * @param run - from `inspectRun`.
 * @returns the words, or null.
 */
export function writerWords(run: Pick<RunInspection, 'writer'>): string | null {
  if (run.writer === 'gone') return 'no live writer: its process was killed or crashed';
  if (run.writer === 'alive') return 'its writer is alive';
  return null;
}

/**
 * {@link writerWords}, and for a writer that is gone the resume command that finishes the run.
 *
 * @param run - from `inspectRun`.
 * @param resume - the resume command that finishes the run, as it works when pasted (resumeCommandLine).
 * @returns e.g. `no live writer: its process was killed or crashed; poisson-prove --store store resume ID finishes it`, or null.
 */
export function writerNote(run: Pick<RunInspection, 'writer' | 'unreadable_lock'>, resume: string): string | null {
  const words = writerWords(run);
  if (run.writer !== 'gone') return words;
  // A lock file that cannot be read is one resume will not take: named first (a review: inspect said
  // "resume finishes it", and resume refused the unreadable lock).
  const first = run.unreadable_lock !== undefined ? `; its lock file ${run.unreadable_lock} cannot be read as a writer's lock (cut short, or not a file): delete it, then` : ';';
  return `${words}${first} ${resume} finishes it`;
}

/**
 * The parts a stopped writer placed and did not record (`inspectRun`'s `uncommitted_parts`), as `inspect`
 * and the run page say it, with the resume that checks and adopts them; null when there are none.
 *
 * @param run - from `inspectRun`.
 * @param resume - the resume command, as it works when pasted (resumeCommandLine).
 */
export function uncommittedNote(run: Pick<RunInspection, 'uncommitted_parts'>, resume: string): string | null {
  const parts = run.uncommitted_parts;
  if (parts === undefined || parts.length === 0) return null;
  const one = parts.length === 1;
  return `${parts.join(', ')}: placed by a writer that stopped before recording ${one ? 'it' : 'them'}, not counted here; ${resume} checks ${one ? 'it and adopts it' : 'them and adopts them'}`;
}

/**
 * A run's status as `inspect` and the run page say it: the status, and for a `running` run its writer
 * in parentheses ({@link writerNote}).
 *
 * @param run - from `inspectRun`.
 * @param resume - the resume command that finishes the run, as it works when pasted (resumeCommandLine).
 * @returns e.g. `running (its writer is alive)`, or `complete`.
 */
export function statusText(run: Pick<RunInspection, 'manifest' | 'writer' | 'unreadable_lock'>, resume: string): string {
  const note = writerNote(run, resume);
  return note === null ? run.manifest.status : `${run.manifest.status} (${note})`;
}
