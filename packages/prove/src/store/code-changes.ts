import type { RunCode, RunManifest } from './manifest.js';
import { requireArgument } from 'poisson-core';

// Where a run's episodes came from more than one version of its target: the code each resume and
// extension ran (their `code`) against the run's own (its provenance). Internal to the store; inspect and
// the CLI's resume and extend say it.

const short = (hex: string): string => hex.slice(0, 12);

/**
 * How the code `other` differs from the run's own code `own`: the target module's bytes (both sha256s
 * known and different), or the working directory's git commit (both known and different). `when` names
 * `other` in the words ("now", "at that resume"). Empty when neither differs, or it cannot be told.
 */
export function codeDifference(own: RunCode, other: RunCode, when: string): string[] {
  const out: string[] = [];
  if (own.target_sha256 !== null && other.target_sha256 !== null && own.target_sha256 !== other.target_sha256) {
    out.push(`the target module's bytes changed (sha256 ${short(own.target_sha256)}… as the run was made, ${short(other.target_sha256)}… ${when})`);
  }
  if (own.git !== null && other.git !== null && own.git.commit !== other.git.commit) {
    out.push(`the working tree's commit changed (${short(own.git.commit)} as the run was made, ${short(other.git.commit)} ${when})`);
  }
  return out;
}

/** The run's own code, as its provenance records it. */
export function runCode(m: Pick<RunManifest, 'provenance'>): RunCode {
  return { git: m.provenance.git, target_sha256: m.provenance.target_sha256 ?? null };
}

/**
 * The resumes and extensions of a run whose code differs from the run's own ({@link codeDifference}), one
 * line each, oldest first: `resume at 2026-12-07T10:20:00Z: the target module's bytes changed (...)`.
 * Empty when none does, or none recorded its code (entries written before the fifth session of 2026-12-07).
 */
export function codeChanges(m: Pick<RunManifest, 'provenance' | 'resumes' | 'extensions'>): string[] {
  requireArgument('codeChanges', 'm', m, 'object', 'a run manifest');
  const own = runCode(m);
  const entries = [
    ...(m.resumes ?? []).map((e) => ({ verb: 'resume', at: e.at, code: e.code })),
    ...(m.extensions ?? []).map((e) => ({ verb: 'extend', at: e.at, code: e.code })),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const out: string[] = [];
  for (const e of entries) {
    if (e.code === undefined) continue;
    const d = codeDifference(own, e.code, `at that ${e.verb}`);
    if (d.length > 0) out.push(`${e.verb} at ${e.at.replace(/\.\d+Z$/, 'Z')}: ${d.join('; ')}`);
  }
  return out;
}
