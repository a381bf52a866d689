import { stat } from 'node:fs/promises';
import { extname, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TargetError } from '../errors.js';
import type { Target } from './target.js';
import { requireArgument } from 'poisson-core';

/** A target given as `FILE:NAME`, split and resolved against a directory. */
export type TargetRef = { readonly file: string; readonly name: string };

const EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'];

/**
 * Splits `FILE:NAME` at its last colon and resolves FILE against `cwd`.
 *
 * @throws {@link TargetError} when there is no colon, no file or no name.
 */
export function parseTargetRef(ref: string, cwd: string): TargetRef {
  requireArgument('parseTargetRef', 'ref', ref, 'string', 'a target reference FILE:NAME');
  requireArgument('parseTargetRef', 'cwd', cwd, 'string');
  const at = ref.lastIndexOf(':');
  const file = at > 0 ? ref.slice(0, at) : '';
  const name = at > 0 ? ref.slice(at + 1) : '';
  if (at <= 0 || file === '' || name === '' || /^[A-Za-z]$/.test(file)) {
    throw new TargetError(`--target ${JSON.stringify(ref)} is not FILE:NAME; pass the module file and the export's name, e.g. --target ./targets.mjs:reference_depth_d1.`);
  }
  return { file: isAbsolute(file) ? file : resolve(cwd, file), name };
}

/** TypeScript modules loaded through tsx, by file (a module is evaluated once per process). */
const tsModules = new Map<string, Promise<Record<string, unknown>>>();

async function importModule(file: string): Promise<Record<string, unknown>> {
  const ext = extname(file);
  const url = pathToFileURL(file).href;
  if (ext === '.ts' || ext === '.mts' || ext === '.cts') {
    // A TypeScript loader may already be active (node --import tsx, vitest): then import natively, so the
    // module is shared with the rest of the process. Else load it through tsx's tsImport, which compiles
    // it as the nearest package.json says (ESM for "type": "module" and .mts, CommonJS otherwise and for
    // .cts) without registering a loader for the whole process.
    let loaded = tsModules.get(file);
    if (loaded === undefined) {
      loaded = (async () => {
        try {
          return (await import(url)) as Record<string, unknown>;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err;
        }
        const api = await import('tsx/esm/api');
        return (await api.tsImport(url, import.meta.url)) as Record<string, unknown>;
      })();
      tsModules.set(file, loaded);
      loaded.catch(() => tsModules.delete(file));
    }
    return loaded;
  }
  return (await import(url)) as Record<string, unknown>;
}

/** The default export's object; for a CommonJS module compiled from `export default {...}`, that object. */
function defaultObject(mod: Record<string, unknown>): Record<string, unknown> | null {
  const d = mod['default'];
  if (d === null || (typeof d !== 'object' && typeof d !== 'function')) return null;
  const inner = (d as Record<string, unknown>)['default'];
  const esModule = (d as Record<string, unknown>)['__esModule'] === true;
  if (esModule && inner !== null && typeof inner === 'object') return inner as Record<string, unknown>;
  return d as Record<string, unknown>;
}

/**
 * Imports a target module and finds the target in it: first among its named exports, then as a property
 * of its default export. `.js`, `.mjs`, `.cjs` load natively; `.ts`, `.mts`, `.cts` through tsx (`tsImport`,
 * whichever module type the nearest package.json gives them), unless a TypeScript loader is already active.
 *
 * @param ref - `FILE:NAME` (FILE relative to `cwd`) or a {@link TargetRef}.
 * @param cwd - the directory FILE is relative to.
 * @returns the target function, with the resolved file and name.
 * @throws {@link TargetError} (code `E_TARGET`, exit 2) naming a missing file, a failing import, a
 *   missing name (with the names that are there) or a name that is not a function.
 * @example
 * ```ts
 * const { fn } = await loadTarget('./targets.mjs:coin', process.cwd());
 * await fn({ seed: 1, replicate_index: 0 }); // { outcome: 'passed', t: 1 }
 * ```
 */
export async function loadTarget(ref: string | TargetRef, cwd: string): Promise<{ fn: Target; file: string; name: string }> {
  if (typeof ref !== 'string') requireArgument('loadTarget', 'ref', ref, 'object', 'a target reference FILE:NAME or { file, name }');
  const { file, name } = typeof ref === 'string' ? parseTargetRef(ref, cwd) : ref;
  const ext = extname(file);
  try {
    const st = await stat(file);
    if (!st.isFile()) throw new TargetError(`the target module ${file} is not a file; pass --target FILE:NAME with a module file.`);
  } catch (err) {
    if (err instanceof TargetError) throw err;
    throw new TargetError(`the target module ${file} does not exist; check the path given to --target (relative paths are from ${cwd}).`);
  }
  if (!EXTENSIONS.includes(ext)) {
    throw new TargetError(`the target module ${file} has the extension "${ext}"; a target module is ${EXTENSIONS.join(', ')}.`);
  }
  let mod: Record<string, unknown>;
  try {
    mod = await importModule(file);
  } catch (err) {
    // An error that lists its problems (a pre-registration with several) keeps every one, a line each.
    const listed = (err as { problems?: unknown } | null)?.problems;
    if (Array.isArray(listed) && listed.length > 0 && listed.every((p) => typeof p === 'string')) {
      throw new TargetError(listed.map((p: string, i) => `the target module ${file} failed to load (${i + 1} of ${listed.length}): ${p.split('\n')[0] ?? ''}`));
    }
    throw new TargetError(`the target module ${file} failed to load: ${loadMessage(err)}; fix the module and try again.`);
  }
  let found: unknown = name in mod && name !== 'default' ? mod[name] : undefined;
  const dflt = defaultObject(mod);
  if (found === undefined && dflt !== null) found = dflt[name];
  if (found === undefined && name === 'default') {
    const d = mod['default'] as Record<string, unknown> | null | undefined;
    found = d !== null && typeof d === 'object' && d['__esModule'] === true && typeof d['default'] === 'function' ? d['default'] : d;
  }
  if (found === undefined) {
    const names = new Set(Object.keys(mod).filter((k) => k !== 'default' && typeof mod[k] === 'function'));
    if (dflt !== null && typeof dflt === 'object') for (const k of Object.keys(dflt)) if (typeof dflt[k] === 'function') names.add(k);
    const list = [...names].sort();
    throw new TargetError(
      `the target module ${file} has no export named "${name}" (neither a named export nor a property of its default export); ${list.length > 0 ? `its functions are ${list.join(', ')}` : 'it exports no functions'}.`,
    );
  }
  if (typeof found !== 'function') {
    throw new TargetError(`"${name}" in ${file} is ${found === null ? 'null' : `a ${typeof found}`}, not a function; a target is a function of one episode's config.`);
  }
  return { fn: found as Target, file, name };
}

/**
 * A load error in one line: its first, and the next when the first only announces it (esbuild's
 * "Transform failed with 1 error:", whose next line names the file, line, column and what it expected;
 * until the sixth session of 2026-12-06 the message stopped at the colon; a review).
 */
export function loadMessage(err: unknown): string {
  // Without the terminal's colour codes, which some transformers put in their messages.
  // eslint-disable-next-line no-control-regex
  const text = (err instanceof Error ? err.message : String(err)).replace(/\u001b\[[0-9;]*m/g, '');
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const first = lines[0] ?? '';
  return first.endsWith(':') && lines[1] !== undefined ? `${first} ${lines[1]}` : first;
}
