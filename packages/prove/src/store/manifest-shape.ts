// The shape every reader relies on in a run.json: a field of the wrong type (an edit, a tool that wrote
// the file) made runs, inspect, view, verify, resume, extend, report and export fail with "internal
// error: TypeError" (exit 1), where a damaged run is refused by name (exit 2). Internal to the store.

/** A value as a message shows it: JSON, cut short; `nothing` for a missing key. */
function shown(v: unknown): string {
  if (v === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    text = String(v);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/**
 * The first field of a parsed run.json whose type is not the one readers use, as the reason a run is
 * damaged (`its run.json's counts is not an object of counts (got null)`), or null. Only types are
 * checked here, and only of the fields every build wrote (`parts`, `extensions`, `resumes` and `retries`
 * may be absent: runs written before them); what the values say against the parts is the readers'
 * check (verify-parts.ts, verify-run.ts).
 *
 * @param m - the parsed run.json (already known to be an object with this run's id, a name and a creation time).
 * @returns the reason, or null.
 */
export function manifestShapeProblem(m: Record<string, unknown>): string | null {
  const field = (key: string, what: string): string => `its run.json's ${key} is not ${what} (got ${shown(m[key])})`;
  if (typeof m['status'] !== 'string') return field('status', 'a text');
  const counts = m['counts'];
  if (!isObject(counts) || !isCount(counts['rows']) || !isCount(counts['rows_without_outcome']) || !isObject(counts['outcomes']) || !Object.values(counts['outcomes']).every(isCount)) {
    return field('counts', 'an object of counts');
  }
  if (!isCount(m['replicates'])) return field('replicates', 'a whole number >= 0');
  if (!Array.isArray(m['seeds']) || !m['seeds'].every((s) => typeof s === 'number')) return field('seeds', 'a list of numbers');
  if (typeof m['salt'] !== 'string') return field('salt', 'a text');
  if (!isObject(m['axes'])) return field('axes', 'an object of axes');
  if (m['conditions'] !== undefined && !(Array.isArray(m['conditions']) && m['conditions'].every((c) => typeof c === 'string'))) return field('conditions', 'a list of texts');
  if (m['parts'] !== undefined && !(Array.isArray(m['parts']) && m['parts'].every(isObject))) return field('parts', 'a list');
  for (const key of ['extensions', 'resumes', 'retries']) {
    if (m[key] !== undefined && !(Array.isArray(m[key]) && (m[key] as unknown[]).every(isObject))) return field(key, 'a list');
  }
  return null;
}
