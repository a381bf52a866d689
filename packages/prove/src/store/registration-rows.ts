import { registrationOf } from './run-writer.js';
import { runLabel } from './manifest-problems.js';
import type { RunManifest } from './manifest.js';
import type { OpenPart } from './verify-parts.js';

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
 * Whether a row of an opened part names a registration in its meta (`meta.pin.registration_sha256`):
 * from the meta column decoded flat (each distinct text parsed once), else as hyparquet reads it.
 */
export async function partNamesRegistration(opened: OpenPart): Promise<boolean> {
  const flat = opened.flat(['meta'])?.columns[0];
  if (flat != null && flat.kind === 'strings') {
    const names = flat.dictionary.map((text) => registrationOf(text) !== null);
    for (let i = 0; i < flat.codes.length; i++) {
      const k = flat.codes[i] as number;
      if (k >= 0 && names[k] === true) return true;
    }
    return false;
  }
  const part = await opened.columns(['meta']);
  const meta = part.columns['meta'];
  for (let i = 0; i < part.rows; i++) {
    const text = meta?.[i];
    if (typeof text === 'string' && registrationOf(text) !== null) return true;
  }
  return false;
}
