// Episode rows shaped like poisson-tasks' reference target's, shared by the store benchmarks.
import { seedFor, type EpisodeRow } from '../src/index.js';

export const HASH = 'be55445411c3b1e4e76dad561ca22f384ac0f56d1b616085b19fa57d9601f83a';
export const CONDITION = `generator_hash ${HASH} · horizon 8 · slack 4 · strictness strict`;

// Rows shaped like poisson-tasks' reference target's: its meta (~470 bytes of JSON) differs per seed.
export function rowAt(r: number): EpisodeRow {
  const seed = seedFor('bench', r);
  return {
    run_id: '20261106T231318Z-cdf9',
    condition: CONDITION,
    generator_hash: HASH,
    horizon: 8,
    slack: 4,
    strictness: 'strict',
    replicate_index: r,
    seed,
    outcome: seed % 11 === 0 ? 'failed' : 'passed',
    t: 2 + (seed % 3),
    score: null,
    error: null,
    meta: JSON.stringify({
      arm_id: 'depth:d3',
      knob: 'depth',
      level: 3,
      control_history: null,
      scenario_id: seed.toString(16).padStart(16, '0'),
      task_id: (seed * 7).toString(16).padStart(16, '0'),
      split: 'eval',
      strictness: 'strict',
      pin: { generator_version: '0', generator_hash: HASH, registration_sha256: '642874648e05868eab18a6de12e2412ec9dd54dc045df29622973f3248411dc6', package_version: '0.1.0' },
      sampled_calls: 3,
    }),
    duration_ms: (seed % 1000) / 7,
  };
}
export const AXES = { generator_hash: 'categorical', horizon: 'continuous', slack: 'continuous', strictness: 'categorical' } as const;
