import { normalUpperQuantile } from './internal/normal.js';
import { wilsonBounds } from './internal/wilson.js';
import { attempt, requireCount, requireObject, requireOpenUnit, requirePositiveCount, throwProblems } from './internal/validate.js';

/** Options of {@link newcombeInterval}: x1 of n1 before (run A), x2 of n2 after (run B). */
export type NewcombeOptions = {
  readonly x1: number;
  readonly n1: number;
  readonly x2: number;
  readonly n2: number;
  /** Confidence level in (0, 1); default 0.95. */
  readonly level?: number;
};

/** The result of {@link newcombeInterval}: a frozen plain object. */
export type NewcombeInterval = {
  readonly method: 'newcombe-hybrid-score';
  /** p2 - p1 = x2 / n2 - x1 / n1. */
  readonly estimate: number;
  readonly lower: number;
  readonly upper: number;
  readonly level: number;
  readonly x1: number;
  readonly n1: number;
  readonly x2: number;
  readonly n2: number;
};

/**
 * Newcombe's hybrid score interval (method 10 of Newcombe 1998) for the difference of two
 * independent proportions, oriented as the paired change: estimate = p2 - p1 (after minus before).
 * With Wilson intervals [l1, u1] for p1 = x1/n1 and [l2, u2] for p2 = x2/n2 (no continuity
 * correction):
 *
 *   lower = (p2 - p1) - sqrt((p2 - l2)^2 + (u1 - p1)^2)
 *   upper = (p2 - p1) + sqrt((u2 - p2)^2 + (p1 - l1)^2)
 *
 * @param options - x1 <= n1 and x2 <= n2 non-negative integers with n1, n2 >= 1; level (default
 *   0.95).
 * @returns a frozen {@link NewcombeInterval} repeating its inputs.
 * @throws RangeError listing at once every bad count, each x above its n and a level outside (0, 1)
 *   (messages joined by "; ").
 * @example
 * ```ts
 * newcombeInterval({ x1: 48, n1: 80, x2: 56, n2: 70 });
 * // { estimate: 0.2, lower: 0.0524..., upper: 0.3339..., level: 0.95, ... } (Newcombe 1998, Table II (a))
 * ```
 * @see Newcombe R.G. (1998) "Interval estimation for the difference between independent
 *   proportions: comparison of eleven methods", Statistics in Medicine 17:873-890, method 10.
 *   Wilson E.B. (1927) JASA 22:209-212.
 */
export function newcombeInterval(options: NewcombeOptions): NewcombeInterval {
  requireObject('options', options);
  // Every problem at once: each count, each x above its n (when both are valid counts), the level.
  const problems: string[] = [];
  const x1 = attempt(problems, () => requireCount('options.x1', options.x1));
  const n1 = attempt(problems, () => requirePositiveCount('options.n1', options.n1));
  const x2 = attempt(problems, () => requireCount('options.x2', options.x2));
  const n2 = attempt(problems, () => requirePositiveCount('options.n2', options.n2));
  if (x1 !== undefined && n1 !== undefined && x1 > n1) {
    problems.push(`options.x1 must not exceed options.n1 (${n1}); got ${x1}`);
  }
  if (x2 !== undefined && n2 !== undefined && x2 > n2) {
    problems.push(`options.x2 must not exceed options.n2 (${n2}); got ${x2}`);
  }
  const level = attempt(problems, () =>
    options.level === undefined ? 0.95 : requireOpenUnit('options.level', options.level),
  );
  throwProblems(problems);
  return newcombeChecked(x1 as number, n1 as number, x2 as number, n2 as number, level as number);
}

// The interval from checked arguments.
function newcombeChecked(x1: number, n1: number, x2: number, n2: number, level: number): NewcombeInterval {
  const z = normalUpperQuantile((1 - level) / 2);
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const [l1, u1] = wilsonBounds(x1, n1, z);
  const [l2, u2] = wilsonBounds(x2, n2, z);
  const estimate = p2 - p1;
  const lower = Math.max(-1, estimate - Math.hypot(p2 - l2, u1 - p1));
  const upper = Math.min(1, estimate + Math.hypot(u2 - p2, p1 - l1));
  return Object.freeze({
    method: 'newcombe-hybrid-score' as const,
    estimate,
    lower,
    upper,
    level,
    x1,
    n1,
    x2,
    n2,
  });
}
