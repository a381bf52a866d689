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

/** The statuses a run has (RunStatus): any other is an edit, which every read would misread (`done` was verified). */
const STATUSES: readonly string[] = ['running', 'complete', 'interrupted', 'failed'];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isText = (v: unknown): boolean => typeof v === 'string';
const isTexts = (v: unknown): boolean => Array.isArray(v) && v.every(isText);
const isNumbers = (v: unknown): boolean => Array.isArray(v) && v.every((x) => typeof x === 'number');
const isGit = (v: unknown): boolean => v === null || (isObject(v) && typeof v['commit'] === 'string' && typeof v['dirty'] === 'boolean');
const isSha256 = (v: unknown): boolean => v === null || (typeof v === 'string' && /^[0-9a-f]{64}$/.test(v));
/** An entry's `code` (absent in entries written before it), as codeChanges reads it. */
const isCode = (v: unknown): boolean => v === undefined || (isObject(v) && isGit(v['git']) && isSha256(v['target_sha256']));

/**
 * The first field of a parsed run.json whose type is not the one readers use, as the reason a run is
 * damaged (`its run.json's counts is not an object of counts (got null)`), or null. Only types are
 * checked here: of the fields every build wrote (`extensions` and `resumes` included), of `parts` and
 * `retries` when present (runs written before them lack them), of `import` when present (an imported
 * run's), and of the entries of `provenance`, `import`, `extensions`, `resumes` and `retries` that readers
 * use; what the values say against the parts is the readers' check (verify-parts.ts, verify-run.ts).
 *
 * @param m - the parsed run.json (already known to be an object with this run's id, a name and a creation time).
 * @returns the reason, or null.
 */
export function manifestShapeProblem(m: Record<string, unknown>): string | null {
  const field = (key: string, what: string): string => `its run.json's ${key} is not ${what} (got ${shown(m[key])})`;
  if (!STATUSES.includes(m['status'] as string)) return field('status', `one of ${STATUSES.join(', ')}`);
  const counts = m['counts'];
  if (!isObject(counts) || !isCount(counts['rows']) || !isCount(counts['rows_without_outcome']) || !isObject(counts['outcomes']) || !Object.values(counts['outcomes']).every(isCount)) {
    return field('counts', 'an object of counts');
  }
  if (!isCount(m['replicates'])) return field('replicates', 'a whole number >= 0');
  if (!isNumbers(m['seeds'])) return field('seeds', 'a list of numbers');
  if (typeof m['salt'] !== 'string') return field('salt', 'a text');
  if (!isObject(m['axes'])) return field('axes', 'an object of axes');
  if (!isTexts(m['conditions'])) return field('conditions', 'a list of texts');
  if (m['parts'] !== undefined && !(Array.isArray(m['parts']) && m['parts'].every(isObject))) return field('parts', 'a list');
  const provenance = m['provenance'];
  if (!isObject(provenance)) return field('provenance', 'an object');
  const inner = (key: string, v: unknown, what: string): string => `its run.json's ${key} is not ${what} (got ${shown(v)})`;
  if (!isTexts(provenance['command'])) return inner('provenance.command', provenance['command'], 'a list of texts');
  const packages = provenance['packages'];
  if (!isObject(packages) || !Object.values(packages).every((v) => typeof v === 'string')) return inner('provenance.packages', packages, 'an object of texts');
  const git = provenance['git'];
  if (!isGit(git)) return inner('provenance.git', git, 'null or { commit, dirty }');
  for (const key of ['node', 'host']) if (typeof provenance[key] !== 'string') return inner(`provenance.${key}`, provenance[key], 'a text');
  if (typeof provenance['pid'] !== 'number') return inner('provenance.pid', provenance['pid'], 'a number');
  if (provenance['target_path'] !== null && typeof provenance['target_path'] !== 'string') return inner('provenance.target_path', provenance['target_path'], 'a text or null');
  const sha = provenance['target_sha256'];
  if (sha !== undefined && !isSha256(sha)) return inner('provenance.target_sha256', sha, 'null or 64 hex digits');
  if (m['import'] !== undefined) {
    const imp = m['import'];
    if (!isObject(imp)) return field('import', 'an object');
    if (typeof imp['harness'] !== 'string') return inner('import.harness', imp['harness'], 'a text');
    const files = imp['files'];
    if (!(Array.isArray(files) && files.every((f) => isObject(f) && typeof f['name'] === 'string' && typeof f['sha256'] === 'string'))) return inner('import.files', files, 'a list of files');
    for (const key of ['harness_version', 'provider', 'prompt', 'scorer']) {
      if (imp[key] !== null && typeof imp[key] !== 'string') return inner(`import.${key}`, imp[key], 'a text or null');
    }
  }
  for (const key of ['extensions', 'resumes']) {
    if (!(Array.isArray(m[key]) && (m[key] as unknown[]).every(isObject))) return field(key, 'a list');
  }
  if (m['retries'] !== undefined && !(Array.isArray(m['retries']) && m['retries'].every(isObject))) return field('retries', 'a list');
  // The entries, field by field, as inspect, view, diff (looksOf), extend, resume and verify read them.
  const entries: [string, [string, (v: unknown) => boolean, string][]][] = [
    ['extensions', [['at', isText, 'a text'], ['replicates_added', isCount, 'a whole number >= 0'], ['from_index', isCount, 'a whole number >= 0'], ['to_index', isCount, 'a whole number >= 0'], ['seeds', isNumbers, 'a list of numbers'], ['code', isCode, 'absent or { git, target_sha256 }']]],
    ['resumes', [['at', isText, 'a text'], ['code', isCode, 'absent or { git, target_sha256 }']]],
    ['retries', [['at', isText, 'a text'], ['from_part', isCount, 'a whole number >= 0'], ['error_match', (v) => v === null || isText(v), 'a text or null']]],
  ];
  for (const [key, fields] of entries) {
    const list = (m[key] ?? []) as Record<string, unknown>[];
    for (const [i, e] of list.entries()) {
      for (const [name, ok, what] of fields) if (!ok(e[name])) return inner(`${key}[${i}].${name}`, e[name], what);
    }
  }
  return null;
}
