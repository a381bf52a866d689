import { registrationOf } from './run-writer.js';
import { runLabel } from './manifest-problems.js';
import type { RunManifest } from './manifest.js';
import { DamagedRunError, eachOpenPart, runParts, type OpenPart } from './verify-parts.js';

// run.json's `registration_sha256` against its rows: the writer records the registration the first row
// naming one (meta.pin) names, so a run that records one holds a row naming it. Until 2026-12-06 one set
// in run.json of a run whose rows name none was shown by inspect and the run page as the run's, and
// verify passed. Internal to the store.

/**
 * The problem of a run.json that records a registration none of its rows names (`named`: whether a row
 * names one), or null.
 */
export function unnamedRegistrationProblem(manifest: RunManifest, named: boolean): string | null {
  const r: unknown = manifest.registration_sha256;
  if (r === null || r === undefined || named) return null;
  return `${runLabel(manifest)}: its run.json records the registration ${String(r).slice(0, 12)}…, and none of its rows names a registration (meta.pin); the manifest was edited or damaged: restore run.json from a copy of the store, or set its registration_sha256 to null.`;
}

/**
 * The problem of a run.json whose registration is not the one its rows name (`named`: the registration
 * the first row naming one names), or null. Verify reads every row; readers read rows until one names a
 * registration, which is the one the writer recorded.
 */
export function otherRegistrationProblem(manifest: RunManifest, named: string): string | null {
  if (manifest.registration_sha256 === named) return null;
  return `${runLabel(manifest)}: ${registrationMismatch(manifest, named)}: restore run.json from a copy of the store (poisson-prove verify ${manifest.run_id} lists what differs).`;
}

/** `its rows name the registration X… (meta.pin), and its run.json records Y…; the manifest was edited or damaged` (verify's words, and the readers'). */
export function registrationMismatch(manifest: Pick<RunManifest, 'registration_sha256'>, named: string): string {
  const r: unknown = manifest.registration_sha256;
  const recorded = r === null || r === undefined ? 'none' : `${String(r).slice(0, 12)}…`;
  return `its rows name the registration ${named.slice(0, 12)}… (meta.pin), and its run.json records ${recorded}; the manifest was edited or damaged`;
}

/**
 * The registration the first row of an opened part that names one names in its meta
 * (`meta.pin.registration_sha256`), or null: from the meta column decoded flat (each distinct text
 * parsed once), else as hyparquet reads it.
 */
export async function partRegistration(opened: OpenPart): Promise<string | null> {
  const flat = opened.flat(['meta'])?.columns[0];
  if (flat != null && flat.kind === 'strings') {
    const names = flat.dictionary.map((text) => registrationOf(text));
    for (let i = 0; i < flat.codes.length; i++) {
      const k = flat.codes[i] as number;
      const name = k >= 0 ? names[k] : null;
      if (name !== null && name !== undefined) return name;
    }
    return null;
  }
  const part = await opened.columns(['meta']);
  const meta = part.columns['meta'];
  for (let i = 0; i < part.rows; i++) {
    const text = meta?.[i];
    const name = typeof text === 'string' ? registrationOf(text) : null;
    if (name !== null) return name;
  }
  return null;
}

/**
 * Refuses a run whose run.json records a registration its rows do not name: none of them names one, or
 * the first that does names another ({@link DamagedRunError}, exit 2). The parts are read in order until
 * a row names a registration (the first part, for a run of a poisson-tasks target). Readers that show or
 * compare the registration (diff, report, export, the pages; inspect as it counts) call it, so an edited
 * `registration_sha256` is not shown or compared as the run's (a review: diff's warning that the runs pin
 * different registrations went silent, and inspect showed the edited one). A run that records none is
 * not read.
 *
 * @param store - the store.
 * @param manifest - the run.
 * @throws {@link DamagedRunError} naming both registrations and the fix.
 */
export async function assertRegistrationNamed(store: string, manifest: RunManifest): Promise<void> {
  if (typeof manifest.registration_sha256 !== 'string') return;
  const parts = await runParts(store, manifest);
  let named: string | null = null;
  const FOUND = Symbol('found');
  try {
    await eachOpenPart(manifest, parts, async (opened) => {
      named = await partRegistration(opened);
      if (named !== null) throw FOUND; // the rest of the parts are not read
    });
  } catch (error) {
    if (error !== FOUND) throw error;
  }
  const problem = named === null ? unnamedRegistrationProblem(manifest, false) : otherRegistrationProblem(manifest, named);
  if (problem !== null) throw new DamagedRunError(manifest.run_id, [problem]);
}
