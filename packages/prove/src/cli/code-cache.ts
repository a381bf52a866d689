import { createHash } from 'node:crypto';
import { Script } from 'node:vm';

/**
 * The CLI as one classic script compiled with V8's code cache (issue 13): Node 20 caches no ES module's
 * compiled code, so each `poisson-prove` process compiled the CLI's ~40 bundle files cold; a
 * `vm.Script` can take the code V8 compiled in an earlier process (`cachedData`). `npm run build`
 * (scripts/bundle-dist.mjs) writes `dist/bundle/cli-script.js` (dist/cli/main.js and every module it
 * reaches, the body of an async function) and its cache, {@link cacheFileName}; bin/poisson-prove.js
 * runs it through {@link compileCliScript} when the cache is there, else the ES module bundle.
 *
 * The script's free names, bound by {@link CliScript.run}: `require`, `__ext` (a dependency, a Node
 * built-in, or poisson-prove's own errors module from the ES module bundle, so ProveError is one class in
 * a process), `__load` (every dynamic import(): a script compiled from a cache cannot import in Node 20),
 * `__import_meta_url` and `__import_meta_resolve`.
 */

/** The values the script's free names are bound to. */
export interface CliScriptBindings {
  /** `require` from the script's file (Node >= 20.19 requires ES modules too). */
  readonly require: (specifier: string) => unknown;
  /** `import()` of a specifier as the script's file would import it. */
  readonly load: (specifier: string) => Promise<unknown>;
  /** The script file's URL. */
  readonly url: string;
  /** `import.meta.resolve` of the script's file. */
  readonly resolve: (specifier: string) => string;
}

/** The compiled script. */
export interface CliScript {
  /** True when V8 rejected the cache given (another V8, other flags, another script), false when it used it, null without one. */
  readonly rejected: boolean | null;
  /** Runs the CLI (its top level: it reads process.argv and exits the process when done). */
  run(bindings: CliScriptBindings): Promise<void>;
  /** The script's code cache as it stands (its header, then V8's cache of its top level and every function compiled so far). */
  createCache(): Buffer;
}

/**
 * The name of the script's code cache for a V8 version and an architecture: a cache V8 made elsewhere
 * is never looked for.
 *
 * @param v8 - `process.versions.v8`
 * @param arch - `process.arch`
 * @returns `cli-script.<v8>-<arch>.cache`
 * @example
 * ```ts
 * cacheFileName('11.3.244.8-node.38', 'x64'); // 'cli-script.11.3.244.8-node.38-x64.cache'
 * ```
 */
export function cacheFileName(v8: string, arch: string): string {
  return `cli-script.${v8}-${arch}.cache`;
}

/** The last line of the script, written by the build: the sha256 of the text above it. */
const ID_LINE = /\/\/ cli-script ([0-9a-f]{64})\s*$/;

/**
 * The build's id of a script: the sha256 of its text that its last line (`// cli-script <sha256>`)
 * records, or null when it has none.
 *
 * @param source - the script's text
 * @returns the 64 hex digits, or null
 */
export function scriptId(source: string): string | null {
  return ID_LINE.exec(source.slice(-100))?.[1] ?? null;
}

/** The length of a cache file's header: the script's id, then the sha256 of V8's bytes (hex). */
const HEADER = 128;

/**
 * Compiles the CLI's script, from its code cache when one is given, made for this script, whole, and V8
 * accepts it; else from the source (a stale or damaged cache costs only the compile it would have
 * saved). A cache file is the script's id ({@link scriptId}), the sha256 of V8's bytes (both in hex), and
 * V8's bytes. Both are checked here, and the id against the sha256 of the script's text, because V8 (Node 20's, in a release build) checks neither: it takes a
 * cache of another script of the same length and runs that script's code, and it aborts the process on
 * damaged bytes. The source is wrapped on its first line, so the script's line numbers stay its own.
 *
 * @param file - the script's path (dist/bundle/cli-script.js), its name in stack traces
 * @param source - the script's text
 * @param cache - the cache file's bytes, or undefined
 * @returns the compiled script
 */
export function compileCliScript(file: string, source: string, cache: Buffer | undefined): CliScript {
  const id = scriptId(source) ?? '-'.repeat(64);
  const data = cache?.subarray(HEADER);
  const ours =
    cache !== undefined &&
    data !== undefined &&
    data.length > 0 &&
    cache.toString('latin1', 0, 64) === id &&
    // The text is the one its id was made of (~1 ms for the 1 MB script): a script edited by hand and
    // left at its length would otherwise run the cache's code, not the edit.
    createHash('sha256').update(source.slice(0, source.lastIndexOf('// cli-script '))).digest('hex') === id &&
    cache.toString('latin1', 64, HEADER) === createHash('sha256').update(data).digest('hex');
  const wrapped = `(async function (require, __ext, __load, __import_meta_url, __import_meta_resolve) {${source.replace(/^#!.*/, '')}\n})`;
  const script = new Script(wrapped, { filename: file, ...(ours ? { cachedData: data } : {}) });
  return {
    rejected: cache === undefined ? null : !ours || script.cachedDataRejected === true,
    run: async (b) => {
      const fn = script.runInThisContext() as (...args: unknown[]) => Promise<void>;
      await fn(b.require, b.require, b.load, b.url, b.resolve);
    },
    createCache: () => {
      const bytes = script.createCachedData();
      return Buffer.concat([Buffer.from(id + createHash('sha256').update(bytes).digest('hex'), 'latin1'), bytes]);
    },
  };
}
