import { createHash } from 'node:crypto';
import TOML from '@iarna/toml';
import { narrowSpec } from '../executor/narrow-spec.js';
import { conditionsOf } from '../spec/conditions.js';
import { seedFor } from '../spec/seed-for.js';
import { parseSweepSpec, type Axis, type SweepSpec } from '../spec/sweep-spec.js';
import { specPath } from './layout.js';
import type { RunManifest } from './manifest.js';
import { readRunFile } from './unreadable-file.js';

/** `run ID ("NAME")`, as the store's messages name a run. */
export function runLabel(m: Pick<RunManifest, 'run_id' | 'name'>): string {
  return `run ${m.run_id} ("${m.name}")`;
}

// The manifest checked against itself (its seeds, its salt, its conditions, its axes): verify, resume,
// extend and every read (store/verify-parts.ts runParts). Internal to the store.

/** Whether a run was imported from another harness's files (its manifest's `import` record). */
export function isImported(manifest: RunManifest): boolean {
  return typeof manifest.import === 'object' && manifest.import !== null;
}

/**
 * Problems of the manifest with itself: seeds that are not the salt's, conditions that are not unique or
 * not the ones its axes give, `extensions` that do not follow one another from the spec's replicates
 * (each adds `replicates_added` indices `from_index`..`to_index` right after the last, with the run's
 * seeds for them) up to `replicates`, and, given the run's spec.toml (`spec`, from {@link specOf}; not
 * for an import), `replicates` that is not its replicates plus what the extensions add, and a target_id,
 * t_unit or axis names that are not its. An imported run records no seeds (`seeds: []`; its rows carry their
 * samples' identities instead). `verify` reports them; `resume` and `extend` refuse a run that has any,
 * before they write (they would run what the edited manifest says); every read refuses one too
 * (`runParts`, with `seeds: 'ends'`: the first four and the last seeds against the salt, the others by verify).
 *
 * @param opts - `seeds`: `all` (default) checks every seed against the salt, `ends` the first four and the last;
 *   `spec`: the run's spec.toml read ({@link specOfText}; its replicates, and its target_id, t_unit and
 *   axis names, checked against run.json's), or null (or absent) when not known.
 */
export function manifestProblems(manifest: RunManifest, opts: { readonly seeds?: 'all' | 'ends'; readonly spec?: SpecFacts | null } = {}): string[] {
  const run = runLabel(manifest);
  const out: string[] = [];
  if (isImported(manifest)) {
    if (!(Array.isArray(manifest.seeds) && manifest.seeds.length === 0)) out.push(`${run}: its run.json records seeds, and an imported run has none (its samples' identities are in its rows); the manifest was edited or damaged.`);
  } else if (!Array.isArray(manifest.seeds) || manifest.seeds.length !== manifest.replicates) {
    out.push(`${run}: its run.json records ${Array.isArray(manifest.seeds) ? manifest.seeds.length : 'no'} seeds for ${String(manifest.replicates)} replicates; the manifest was edited or damaged.`);
  } else {
    // Every seed (verify, resume, extend), or the first four and the last (every read: a salt edited by
    // any character changes them all, and 10^4 sha256s per read would cost ~10 ms; the first four are the
    // ones inspect prints: two of them swapped were printed as the run's, a review).
    const last = manifest.seeds.length - 1;
    const rs = opts.seeds === 'ends' ? [...new Set([0, 1, 2, 3, last])].filter((r) => r >= 0 && r <= last) : manifest.seeds.map((_, r) => r);
    const wrong = rs.find((r) => manifest.seeds[r] !== seedFor(manifest.salt, r)) ?? -1;
    if (wrong >= 0) out.push(`${run}: its run.json records the seed ${String(manifest.seeds[wrong])} for replicate ${wrong}, and the salt gives ${seedFor(manifest.salt, wrong)}; the manifest was edited or damaged.`);
  }
  if (!Array.isArray(manifest.conditions) || new Set(manifest.conditions).size !== manifest.conditions.length) {
    out.push(`${run}: its run.json's conditions are missing or repeat; the manifest was edited or damaged.`);
  } else if (!isImported(manifest)) {
    let labels: string[] | null;
    try {
      labels = conditionsOf(manifest).map((c) => c.label);
    } catch {
      labels = null;
    }
    const recorded = new Set(manifest.conditions);
    const shown = (xs: readonly string[]): string => xs.slice(0, 4).map((x) => JSON.stringify(x)).join(', ') + (xs.length > 4 ? `, and ${xs.length - 4} more` : '');
    if (labels === null || labels.length !== recorded.size || labels.some((l) => !recorded.has(l))) {
      out.push(`${run}: its axes give the conditions ${labels === null ? '(none: the axes cannot be read)' : shown(labels)}, and its run.json records ${shown(manifest.conditions)}; the manifest was edited or damaged.`);
    } else {
      // The same conditions in another order: the part records' condition ranges index this list, and
      // every output's rows follow it.
      const at = labels.findIndex((l, i) => l !== manifest.conditions[i]);
      if (at >= 0) {
        const from = Math.max(0, at - 1);
        const window = (xs: readonly string[]): string => (from > 0 ? '..., ' : '') + shown(xs.slice(from));
        out.push(`${run}: its axes give the conditions ${window(labels)} in that order, and its run.json records ${window(manifest.conditions)}; the manifest was edited or damaged.`);
      }
    }
  }
  // An import's spec.toml is the shape of the logs it read, not a spec that ran (older builds stored an
  // empty import as 1 replicate over it), and an import is never extended: only its extensions are checked.
  out.push(...replicateProblems(manifest, isImported(manifest) ? null : (opts.spec?.replicates ?? null)));
  if (opts.spec !== undefined && opts.spec !== null && !isImported(manifest)) out.push(...specProblems(manifest, opts.spec));
  out.push(...gateProblems(manifest));
  const jobs: unknown = (manifest as { usage_jobs?: unknown }).usage_jobs;
  if (jobs !== undefined && !(Array.isArray(jobs) && jobs.every((j) => typeof j === 'string' && /^[^:]+:.+$/.test(j)))) {
    // resume and extend skip the usage of the reports listed: a list they cannot read would count jobs twice.
    out.push(`${run}: its run.json's usage_jobs is not a list of JOB_ID:REPORT_ID texts (got ${JSON.stringify(jobs).slice(0, 80)}); the manifest was edited or damaged.`);
  }
  return out;
}

/**
 * `replicates` against `extensions` and the spec's replicates (null when not known: then the spec's are
 * taken to be `replicates` less what the extensions add). A run's replicates are the spec's, then each
 * extension's `from_index`..`to_index` in order, with no gap and no overlap: an edited count made `resume`
 * run replicates no extension records, and an edited extension made `diff` print another history.
 */
function replicateProblems(manifest: RunManifest, specReplicates: number | null): string[] {
  const exts = manifest.extensions;
  const total = manifest.replicates;
  if (!Array.isArray(exts) || !Number.isSafeInteger(total)) return []; // the shape check names these
  const run = runLabel(manifest);
  const edited = 'the manifest was edited or damaged.';
  const added = exts.reduce((n, e) => n + (Number.isSafeInteger(e?.replicates_added) ? e.replicates_added : 0), 0);
  let next = specReplicates ?? total - added;
  if (next < 1) return [`${run}: its run.json's extensions add ${added} replicates, and its replicates is ${total}; ${edited}`];
  for (const [i, e] of exts.entries()) {
    const want = `${next}..${next + e.replicates_added - 1}`;
    if (!(e.replicates_added >= 1) || e.from_index !== next || e.to_index !== next + e.replicates_added - 1) {
      return [`${run}: its run.json's extensions[${i}] adds ${String(e.replicates_added)} replicates as ${String(e.from_index)}..${String(e.to_index)}, and they would be ${want}: each extension follows the spec's replicates and the extensions before it; ${edited}`];
    }
    const seeds = Array.isArray(e.seeds) && Array.isArray(manifest.seeds) ? e.seeds : [];
    if (seeds.length !== e.replicates_added || seeds.some((x, k) => x !== manifest.seeds[next + k])) {
      return [`${run}: its run.json's extensions[${i}].seeds are not its seeds of replicates ${want}; ${edited}`];
    }
    next += e.replicates_added;
  }
  if (next !== total) {
    const by = exts.length === 0 ? 'no extension adds any' : `its extensions add ${added}`;
    return [`${run}: its run.json's replicates is ${total}, and its spec.toml has ${String(specReplicates)} (${by}); ${edited}`];
  }
  return [];
}

/**
 * A run's spec.toml read ({@link specOfText}, for {@link manifestProblems}' `spec`), or null when the file
 * is missing or is not the one `spec_sha256` records (every read reports that itself).
 *
 * @param store - the store directory.
 * @param manifest - the run's manifest.
 */
export async function specOf(store: string, manifest: RunManifest): Promise<SpecFacts | null> {
  const read = await readRunFile(specPath(store, manifest.run_id), 'its spec.toml');
  const bytes = 'bytes' in read ? read.bytes : null;
  if (bytes === null || createHash('sha256').update(bytes).digest('hex') !== manifest.spec_sha256) return null;
  return specOfText(bytes);
}

/** What a run's spec.toml says that its run.json repeats: for {@link manifestProblems}' `spec`. */
export type SpecFacts = {
  readonly replicates: number | null;
  readonly target_id: unknown;
  readonly t_unit: unknown;
  /** The names of its axes, sorted. */
  readonly axes: readonly string[];
  /**
   * The spec as today's parser reads it (its axes' types and values, its events), or null when it
   * refuses it (a spec an older build accepted is then compared on the facts above alone).
   */
  readonly spec: SweepSpec | null;
};

/** The facts of a spec.toml's bytes already checked against `spec_sha256`, parsed once; null when they are not TOML. */
export function specOfText(bytes: Buffer): SpecFacts | null {
  const text = bytes.toString('utf8');
  // Parsed once: by today's spec parser, or (a spec it refuses, which an older build accepted) as TOML.
  try {
    const spec = parseSweepSpec(text);
    return { spec, replicates: spec.replicates, target_id: spec.target_id, t_unit: spec.t_unit, axes: Object.keys(spec.axes).sort() };
  } catch {
    // read below
  }
  let doc: Record<string, unknown>;
  try {
    doc = TOML.parse(text.replace(/^\uFEFF/, '')) as Record<string, unknown>;
  } catch {
    return null;
  }
  const r = doc['replicates'];
  const axes = doc['axes'];
  return {
    spec: null,
    replicates: typeof r === 'number' && Number.isSafeInteger(r) && r >= 1 ? r : null,
    target_id: doc['target_id'],
    t_unit: doc['t_unit'],
    axes: typeof axes === 'object' && axes !== null ? Object.keys(axes).sort() : [],
  };
}

/**
 * The spec.toml's target_id, t_unit, axes (names, types and values, narrowed by run.json's `only`) and
 * events against run.json's (a sweep writes them alike; an import's spec.toml is the shape of its logs,
 * not compared): a spec.toml rewritten with its sha256 in run.json passed every check but its
 * replicates', and then (until the seventh session of 2026-12-05) every check but its axis values and
 * events. Empty when they agree.
 */
function specProblems(manifest: RunManifest, spec: SpecFacts): string[] {
  const edited = 'the manifest or the spec was edited or damaged.';
  const axes = typeof manifest.axes === 'object' && manifest.axes !== null ? Object.keys(manifest.axes).sort() : [];
  if (!(spec.target_id === manifest.target_id && spec.t_unit === manifest.t_unit && spec.axes.join('\u0000') === axes.join('\u0000'))) {
    const facts = (target: unknown, unit: unknown, names: readonly string[]): string => `target_id ${JSON.stringify(target)}, t_unit ${JSON.stringify(unit)} and the axes ${names.length > 0 ? names.join(', ') : '(none)'}`;
    return [`${runLabel(manifest)}: its spec.toml names ${facts(spec.target_id, spec.t_unit, spec.axes)}, and its run.json records ${facts(manifest.target_id, manifest.t_unit, axes)}; ${edited}`];
  }
  if (spec.spec === null) return [];
  const out: string[] = [];
  const only = manifest.only;
  let ran: SweepSpec;
  try {
    ran = typeof only === 'object' && only !== null ? narrowSpec(spec.spec, only).spec : spec.spec;
  } catch {
    return [`${runLabel(manifest)}: its run.json's only (${JSON.stringify(only).slice(0, 80)}) names values its spec.toml's axes do not have; ${edited}`];
  }
  // Compared in NFC, as today's parser reads a spec (a run an older build wrote keeps values as typed).
  const differ = axes.filter((name) => axisText(ran.axes[name]).normalize('NFC') !== axisText(manifest.axes[name]).normalize('NFC'));
  if (differ.length > 0) {
    const shown = (of: (name: string) => Axis | undefined): string => differ.map((name) => `${name} ${axisText(of(name), 8)}`).join('; ');
    const narrowed = typeof only === 'object' && only !== null ? ', narrowed by its run.json\'s only,' : '';
    out.push(`${runLabel(manifest)}: its spec.toml gives${narrowed} the axes ${shown((n) => ran.axes[n])}, and its run.json records ${shown((n) => manifest.axes[n])}; ${edited}`);
  }
  const events = (xs: readonly string[] | null | undefined): string => (Array.isArray(xs) && xs.length > 0 ? xs.map((x) => JSON.stringify(x)).join(', ') : 'none');
  if (events(ran.events).normalize('NFC') !== events(manifest.events).normalize('NFC')) {
    out.push(`${runLabel(manifest)}: its spec.toml declares the events ${events(ran.events)}, and its run.json records ${events(manifest.events)}; ${edited}`);
  }
  return out;
}

/**
 * An axis as the comparison reads it and the messages show it: `(continuous) 4, 8`, `(categorical) "a", "b"`;
 * with `shown`, the first `shown` values and how many more.
 */
function axisText(axis: Axis | undefined, shown = Infinity): string {
  if (typeof axis !== 'object' || axis === null || !Array.isArray(axis.values)) return '(unreadable)';
  const values: readonly unknown[] = axis.values;
  const more = values.length > shown ? `, and ${values.length - shown} more` : '';
  return `(${String(axis.type)}) ${values.slice(0, shown).map((v) => (typeof v === 'number' ? String(v) : JSON.stringify(v))).join(', ')}${more}`;
}

/** The gate's inputs as the sweep (and import) commands name them, and the run.json field each sets. */
const GATE_FLAGS = [
  ['--max-mde', 'max_mde'],
  ['--q', 'q'],
  ['--power', 'power'],
  ['--discordance', 'discordance'],
  ['--method', 'method'],
] as const;

/** What a sweep records for a gate flag its command leaves out (null: the field absent or null). */
const GATE_DEFAULTS = { q: 0.05, power: 0.8, method: 'exact', discordance: null } as const;

/**
 * run.json's gate inputs (`max_mde`, the diff's threshold; `q`, `power`, `discordance`, `method`) against
 * the command the CLI recorded in `provenance.command` (`poisson-prove ... sweep ... --max-mde 0.99`),
 * where it names them: edited after the sweep, they changed the diff's verdict while it said "recorded at
 * sweep time", and verify passed (until the seventh session of 2026-12-05). A flag the command leaves
 * out stands for its default (`--q` 0.05, `--power` 0.8, `--method` exact, no `--discordance`; an import's
 * `--max-mde` 0.1): a discordance added to run.json of a run swept without one flipped the diff's verdict
 * (until 2026-12-06). A run made by a library call records what its caller passed, and is not compared.
 */
function gateProblems(manifest: RunManifest): string[] {
  const command: unknown = manifest.provenance?.command;
  if (!Array.isArray(command)) return [];
  const args = command.map(String);
  // The CLI's sweep records `poisson-prove ARGV`; its import recorded ARGV alone (`--store S import ...`).
  const cli = args[0] === 'poisson-prove' || (isImported(manifest) && args.includes('import'));
  if (!cli) return [];
  const out: string[] = [];
  for (const [flag, field] of GATE_FLAGS) {
    let given: string | undefined;
    args.forEach((a, i) => {
      if (a === flag && i + 1 < args.length) given = args[i + 1];
      else if (a.startsWith(`${flag}=`)) given = a.slice(flag.length + 1);
    });
    const recorded: unknown = (manifest as Record<string, unknown>)[field];
    const verb = isImported(manifest) ? 'import' : 'sweep';
    if (given === undefined) {
      // Left out: the default the command recorded (max_mde is required by sweep; import's is 0.1).
      const fallback = field === 'max_mde' ? (isImported(manifest) ? 0.1 : undefined) : GATE_DEFAULTS[field];
      if (fallback === undefined || recorded === fallback || (fallback === null && recorded === undefined)) continue;
      const fix = fallback === null ? `remove ${field} from run.json` : `restore ${field} ${JSON.stringify(fallback)} in run.json`;
      out.push(`${runLabel(manifest)}: its run.json records ${field} ${JSON.stringify(recorded ?? null)}, and the command that ${verb === 'import' ? 'imported' : 'swept'} it (provenance.command) gave no ${flag} (${fallback === null ? 'none' : JSON.stringify(fallback)}); the manifest was edited or damaged: ${fix}, or ${verb} again.`);
      continue;
    }
    const same = field === 'method' ? recorded === given : typeof recorded === 'number' && recorded === Number(given);
    if (!same) {
      out.push(`${runLabel(manifest)}: its run.json records ${field} ${JSON.stringify(recorded ?? null)}, and the command that ${verb === 'import' ? 'imported' : 'swept'} it (provenance.command) gave ${flag} ${given}; the manifest was edited or damaged: restore ${field} ${field === 'method' ? JSON.stringify(given) : given} in run.json, or ${verb} again.`);
    }
  }
  return out;
}
