// A TypeScript fixture target, loaded through tsx.
import type { TargetConfig, TargetResult } from '../index.js';

export function typed(cfg: TargetConfig): TargetResult {
  const label: string = cfg.seed % 2 === 0 ? 'passed' : 'failed';
  return { outcome: label, t: 3, meta: { typed: true } };
}
