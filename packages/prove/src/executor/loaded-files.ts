import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { createRequire, register } from 'node:module';
import { isAbsolute } from 'node:path';
import { MessageChannel } from 'node:worker_threads';

/**
 * The module loader's hook, registered once a process (Node's `module.register`, run on the loader's
 * thread): for every module file Node loads outside a `node_modules` folder it reads the file's size,
 * modification time and sha256 right then, as Node reads it, and posts them to this thread's port (read
 * later, on this thread, an edit made just after the load was taken for what had loaded). A data URL,
 * so that it loads the same from the build and from the sources.
 */
const HOOK = [
  "import { readFileSync, realpathSync, statSync } from 'node:fs';",
  "import { createHash } from 'node:crypto';",
  "import { fileURLToPath } from 'node:url';",
  'let port;',
  'const seen = new Set();',
  'function post(url) {',
  "  if (!url.startsWith('file:')) return;",
  '  try {',
  '    const file = realpathSync(fileURLToPath(url));',
  "    if (seen.has(file) || /[\\\\/]node_modules[\\\\/]/.test(file)) return;",
  '    seen.add(file);',
  '    const s = statSync(file);',
  "    port.postMessage({ file, size: s.size, mtimeMs: s.mtimeMs, sha256: createHash('sha256').update(readFileSync(file)).digest('hex') });",
  '  } catch {}',
  '}',
  'export async function initialize(data) { port = data.port; }',
  // Resolved: a loader registered after this one (tsx) may load a file itself without asking the next.
  'export async function resolve(specifier, context, next) {',
  '  const resolved = await next(specifier, context);',
  '  post(resolved.url);',
  '  return resolved;',
  '}',
  'export async function load(url, context, next) {',
  '  post(url);',
  '  return next(url, context);',
  '}',
].join('\n');

/** What a file held when it was loaded: its size, modification time and sha256. */
type Loaded = { readonly size: number; readonly mtimeMs: number; readonly sha256: string };

/** The module files this process loaded, and which of them changed since ({@link watchLoadedFiles}). */
export type LoadedFiles = {
  /**
   * The module files loaded here (by real path, outside any `node_modules` folder) whose bytes on disk are
   * no longer those Node loaded, sorted. A file whose size and modification time are unchanged is not read
   * again.
   */
  changed(): Promise<string[]>;
  /** The module files recorded so far (a load is recorded a turn or so after the import that made it). */
  loaded(): string[];
};

let watching: LoadedFiles | null = null;

/**
 * Starts recording the module files this process loads from now on (ES modules through a module hook,
 * CommonJS ones from require's cache at each look), outside any `node_modules` folder,
 * with their sha256 as Node loaded them (once a process; later calls return the same recorder). Node keeps
 * a module it loaded for the life of the process, so a file edited since runs as it was: a long-lived
 * worker calls this before it imports any target, and refuses jobs while {@link LoadedFiles.changed} names
 * a file (bullmq-worker.ts: a file a target imports, edited while the worker ran, ran its old code).
 *
 * @returns the {@link LoadedFiles} recorder.
 * @see docs/distributed.md, "A worker refuses a job from another version of the target module".
 */
export function watchLoadedFiles(): LoadedFiles {
  if (watching !== null) return watching;
  const files = new Map<string, Loaded>();
  const requireCache = createRequire(import.meta.url).cache;
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (m: { file: string; size: number; mtimeMs: number; sha256: string }) => {
    // The first load of a file is the module Node keeps.
    if (!files.has(m.file)) files.set(m.file, { size: m.size, mtimeMs: m.mtimeMs, sha256: m.sha256 });
  });
  port1.unref();
  register(`data:text/javascript,${encodeURIComponent(HOOK)}`, { data: { port: port2 }, transferList: [port2] });
  watching = Object.freeze({
    loaded: () => [...files.keys()],
    async changed(): Promise<string[]> {
      // The loads posted so far: a message is delivered in a later turn than the import that made it.
      await new Promise((resolve) => setImmediate(resolve));
      // CommonJS modules (a .ts target compiled as CommonJS by tsx, a .cjs one) load through require,
      // past the module hooks: taken from require's cache (its key a path, tsx's with a ?namespace query)
      // as first seen here, at the look after the import that loaded them.
      for (const key of Object.keys(requireCache)) {
        const path = key.replace(/\?.*$/, '');
        if (!isAbsolute(path) || /[\\/]node_modules[\\/]/.test(path)) continue;
        const real = await realpath(path).catch(() => null);
        if (real === null || files.has(real)) continue;
        const now = await snapshot(real);
        if (now !== null && !files.has(real)) files.set(real, now);
      }
      const out: string[] = [];
      for (const [file, was] of files) {
        const s = await stat(file).catch(() => null);
        if (s !== null && s.size === was.size && s.mtimeMs === was.mtimeMs) continue;
        const now = await snapshot(file);
        if (now === null || now.sha256 !== was.sha256) out.push(file);
      }
      return out.sort();
    },
  });
  return watching;
}

async function snapshot(file: string): Promise<Loaded | null> {
  try {
    const [s, bytes] = await Promise.all([stat(file), readFile(file)]);
    return { size: s.size, mtimeMs: s.mtimeMs, sha256: createHash('sha256').update(bytes).digest('hex') };
  } catch {
    return null;
  }
}
