// The depth-3 reference policy of poisson-tasks as a sweep target, for the benchmarks (importable by
// worker threads as FILE:NAME). The registration is written once to the OS temp dir under its sha256.
import { createHash } from 'node:crypto';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { registrationText } from 'poisson-tasks';
import { loadRegistry } from 'poisson-tasks/adapter';

const text = registrationText({ knob: 'depth', strictness: 'strict', split: 'eval', generatorVersion: '0', slack: 4, arms: ['depth:d1', 'depth:d3', 'depth:d1+h3'] });
const sha256 = createHash('sha256').update(text).digest('hex');
const file = join(tmpdir(), `poisson-bench-registration-${sha256.slice(0, 16)}.toml`);
// Written whole under a name of its own, then renamed into place: a process that imports this module
// while another writes the file reads all of it or none (worker threads and bench processes share it).
if (!existsSync(file)) {
  const tmp = `${file}.${process.pid}.${threadId}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

export const registry = loadRegistry(file, { sha256 });
export const reference_depth_d3 = registry.targets['reference_depth_d3'];
/** This module's reference target as FILE:NAME, for sweeps (worker threads import it by that). */
export const REFERENCE_TARGET = `${fileURLToPath(import.meta.url)}:reference_depth_d3`;

/** The registration's pinned axes (the target refuses a cfg without them): one condition. */
export const PINNED_AXES = { slack: registry.slack, horizon: registry.horizon, strictness: 'strict', generator_hash: registry.generatorHash };

/** A sweep spec of one condition carrying {@link PINNED_AXES}, with `replicates` replicates. */
export function pinnedSpec(replicates: number, targetId = 'bench'): string {
  return [
    `target_id = "${targetId}"\nt_unit = "turns"\nreplicates = ${replicates}`,
    ...Object.entries(PINNED_AXES).map(([k, v]) => `[axes.${k}]\ntype = "${typeof v === 'number' ? 'continuous' : 'categorical'}"\nvalues = [${JSON.stringify(v)}]`),
    '',
  ].join('\n');
}
