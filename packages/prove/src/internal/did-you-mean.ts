/**
 * Levenshtein distance between two strings (insertions, deletions, substitutions; unit costs), by the
 * two-row dynamic programme of Wagner & Fischer (1974), "The string-to-string correction problem",
 * J. ACM 21(1).
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/**
 * The candidate closest to `name` when it is close enough to be a likely misspelling: an edit distance
 * of at most max(1, a third of the longer name's length), ties broken by the candidates' order; or one
 * that equals `name` ignoring case.
 *
 * @returns the suggestion, or null.
 * @example
 * ```ts
 * closestName('faild', ['failed', 'passed']); // 'failed'
 * ```
 */
export function closestName(name: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  for (const c of candidates) {
    if (c.toLowerCase() === name.toLowerCase()) return c;
    const d = editDistance(name, c);
    if (d < bestD && d <= Math.max(1, Math.floor(Math.max(name.length, c.length) / 3))) {
      best = c;
      bestD = d;
    }
  }
  return best;
}

/** ` (did you mean "X"?)` when a close candidate exists, else ''. */
export function didYouMean(name: string, candidates: readonly string[], quote = true): string {
  const c = closestName(name, candidates);
  return c === null ? '' : ` (did you mean ${quote ? `"${c}"` : c}?)`;
}
