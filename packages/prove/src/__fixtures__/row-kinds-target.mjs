// A fixture target that gives every kind of row (plain JS, so that worker threads import it as is).

/**
 * Every kind of row by seed mod 6: a graded pass (score, fractional t, non-ASCII meta), a failure with a
 * null score, a crash (thrown), a null outcome, a result that is not a TargetResult, and a pass with no
 * meta and a score of 0.
 */
export function varied(cfg) {
  switch (cfg.seed % 6) {
    case 0:
      return { outcome: 'passed', t: (cfg.seed % 97) / 8, score: (cfg.seed % 11) / 10, meta: { note: 'δ ✓ "quoted"', slack: cfg.slack } };
    case 1:
      return { outcome: 'failed', t: 3, score: null, meta: { seed: cfg.seed } };
    case 2:
      throw new Error(`crash on seed ${cfg.seed}`);
    case 3:
      return { outcome: null, t: 0, meta: {} };
    case 4:
      return { outcome: 7 };
    default:
      return { outcome: 'passed', t: 1, score: 0 };
  }
}
