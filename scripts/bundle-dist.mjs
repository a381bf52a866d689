// Bundles, after tsc, the modules every CLI process loads many files of into one file each (esbuild, one
// ES module): in Node 20 each module file costs roughly half a millisecond to resolve, read and compile,
// so a sweep process that loaded ~230 of them spent more time loading than sweeping. Run by
// `npm run build`; the packages map to the bundles outside the "poisson-source" condition (tests and tsx with
// --conditions=poisson-source keep the modules themselves).
//   packages/prove/dist/vendor/parquet-libs.js  hyparquet + hyparquet-writer (51 files) + hysnappy, `#parquet-libs`
//                                               in packages/prove/package.json "imports"
//   packages/*/dist/bundle/                     each package's own modules (core 7, stats 25, tasks 30,
//                                               prove ~200 files), the "default" of its package.json
//                                               "exports" (and prove's bin, bundle/main.js); their
//                                               dependencies stay where they are (external), and the
//                                               entries of one package share chunks, so each class
//                                               exists once in a process
//   packages/prove/dist/bundle/cli-script.js    the CLI once more as one script, with its V8 code cache
//                                               (cli-script.<v8>-<arch>.cache), which bin/poisson-prove.js
//                                               runs when the cache is this Node's (see below)
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Where the notice of a package without a LICENSE file stands (seedrandom's main, index.js, has none). */
const NOTICE_FILE = { seedrandom: 'seedrandom.js' };

/**
 * The name, version and license text of an installed package, for the banner of a bundle that inlines it:
 * its LICENSE file, else the first block comment of its notice file ({@link NOTICE_FILE}, or its main).
 */
function notice(name, from) {
  let dir = dirname(fileURLToPath(import.meta.resolve(name, from)));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  const { version, license, main = 'index.js' } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  let text;
  if (existsSync(join(dir, 'LICENSE'))) text = readFileSync(join(dir, 'LICENSE'), 'utf8');
  else {
    const head = /^\/\*([\s\S]*?)\*\//.exec(readFileSync(join(dir, NOTICE_FILE[name] ?? main), 'utf8'))?.[1] ?? '';
    if (!/Copyright/.test(head)) throw new Error(`${name}: no LICENSE file and no notice at the top of its main file`);
    text = head;
  }
  return `${name} ${version} (${license}):\n${text.trim()}`;
}

const comment = (lines) => `/*\n${lines.split('\n').map((l) => ` * ${l}`.trimEnd()).join('\n')}\n */`;

async function bundle(entry, outfile, banner) {
  await build({
    entryPoints: [join(root, entry)],
    outfile: join(root, outfile),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    legalComments: 'inline',
    logLevel: 'warning',
    sourcemap: true, // composed with tsc's maps: --enable-source-maps shows src/ lines
    banner: { js: comment(banner) },
  });
}

// The parquet libraries: their MIT licenses ask that the notice go with every copy.
const prove = new URL('../packages/prove/dist/store/parquet.js', import.meta.url).href;
await bundle(
  'packages/prove/dist/store/parquet-libs.js',
  'packages/prove/dist/vendor/parquet-libs.js',
  `Bundled by scripts/bundle-dist.mjs from:\n\n${['hyparquet', 'hyparquet-writer', 'hysnappy'].map((n) => notice(n, prove)).join('\n\n')}`,
);
// Our packages: the entries of each package's "exports" (dist/<entry>.js) into dist/bundle/<entry>.js.
// The bundles sit one folder below dist/ as dist/internal/ does, so paths relative to a module
// (`../../package.json`, `../o200k-ranks.bin`) name the same files from either. A package's
// dependencies stay external (one copy in a process, found in node_modules), except two small CommonJS
// libraries whose values never cross a package (duck-typed errors, plain objects, functions): @iarna/toml
// (14 files) and seedrandom (8 files), inlined where used. poisson-prove's entries are its library, its CLI
// and the worker threads' entry (which the worker backend finds beside itself, ./worker-entry.js); its
// lazy imports (a verb's modules, the bullmq backend, Arrow) stay lazy as chunks of their own.
const INLINE = new Set(['@iarna/toml', 'seedrandom']);
for (const [pkg, entries] of [
  ['core', ['index']],
  ['stats', ['index']],
  ['tasks', ['index', 'adapter']],
  ['prove', ['index', 'cli/main', 'executor/worker-entry', 'errors', 'cli/code-cache']],
]) {
  const dir = join(root, 'packages', pkg, 'dist');
  const { dependencies = {}, optionalDependencies = {}, peerDependencies = {} } = JSON.parse(
    readFileSync(join(root, 'packages', pkg, 'package.json'), 'utf8'),
  );
  const deps = Object.keys({ ...dependencies, ...optionalDependencies, ...peerDependencies });
  const inlined = deps.filter((d) => INLINE.has(d)).sort();
  const from = new URL(`../packages/${pkg}/package.json`, import.meta.url).href;
  const banner = [
    `poisson-${pkg}, bundled from dist/ by scripts/bundle-dist.mjs (its own modules${inlined.length ? `, and ${inlined.join(' and ')}` : ''}).`,
    ...inlined.map((d) => `\n${notice(d, from)}`),
  ].join('\n');
  rmSync(join(dir, 'bundle'), { recursive: true, force: true }); // no chunk of an earlier build left over
  await build({
    entryPoints: Object.fromEntries(entries.map((e) => [e.replace(/^.*\//, ''), join(dir, `${e}.js`)])),
    outdir: join(dir, 'bundle'),
    bundle: true,
    splitting: true,
    external: deps.filter((d) => !INLINE.has(d)).flatMap((d) => [d, `${d}/*`]),
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    sourcemap: true, // composed with tsc's maps: --enable-source-maps shows src/ lines
    // An inlined CommonJS module's require() of a Node built-in goes through this one.
    banner: { js: `${comment(banner)}\nimport { createRequire as __bundleRequire } from 'node:module';\nconst require = __bundleRequire(import.meta.url);` },
  });
}

// The CLI once more, as one classic script with a V8 code cache (Node 20 has no compile cache for ES
// modules, and each `poisson-prove` process compiled ~40 files cold; a code cache needs a vm.Script):
//   packages/prove/dist/bundle/cli-script.js              dist/cli/main.js and every module it reaches,
//                                                         in the body of an async function (its top-level
//                                                         await), with no import statement
//   packages/prove/dist/bundle/cli-script.<v8>-<arch>.cache   V8's code cache of it, written by running
//                                                         the CLI a few times (see trainCache)
// bin/poisson-prove.js runs the script with the cache when this Node's V8 made it, else the ES module
// bundle (dist/bundle/main.js) as before. Inside the script a dependency or Node built-in is
// `__ext(name)` (the bin passes require: Node >= 20.19 requires ES modules too), poisson-prove's own
// errors module is the ES module bundle's (dist/bundle/errors.js), so ProveError is one class in a
// process whether a target imports it from 'poisson-prove' or the CLI throws it, every dynamic import()
// is `__load(...)` (the bin's import(); a vm.Script compiled from a cache cannot import in Node 20), and
// import.meta.url / import.meta.resolve are the bin's values for the script's file.
const proveDist = join(root, 'packages', 'prove', 'dist');
const scriptFile = join(proveDist, 'bundle', 'cli-script.js');
const proveRequire = createRequire(join(root, 'packages', 'prove', 'package.json'));
const RESERVED = new Set(['arguments', 'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'delete', 'do', 'else', 'enum', 'eval', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'implements', 'import', 'in', 'instanceof', 'interface', 'let', 'new', 'null', 'package', 'private', 'protected', 'public', 'return', 'static', 'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'yield']);
{
  // poisson-core and poisson-stats inlined too: they define no class that crosses to a target, and keep
  // no state but poisson-stats' memo of rejection bounds (a cache: a second copy, in a target that imports
  // poisson-stats itself, gives the same values). A target that imports poisson-tasks still loads
  // poisson-core's bundle itself.
  const inline = (p) => [...INLINE, 'poisson-core', 'poisson-stats'].some((d) => p === d || p.startsWith(`${d}/`));
  const errorsModule = join(proveDist, 'errors.js');
  const external = {
    name: 'cli-script-externals',
    setup(b) {
      b.onResolve({ filter: /^[^./#]/ }, (a) => {
        if (inline(a.path)) return undefined;
        if (a.kind === 'dynamic-import') return { path: a.path, external: true }; // becomes __load(...)
        return { path: a.path, namespace: 'ext' };
      });
      b.onResolve({ filter: /errors\.js$/ }, (a) =>
        join(a.resolveDir, a.path) === errorsModule ? { path: './errors.js', namespace: 'ext' } : undefined,
      );
      // An ES module of the names the module exports (read by importing it here), each read once from
      // __ext(name): esbuild's CommonJS interop would copy every property at every importing module.
      b.onLoad({ filter: /.*/, namespace: 'ext' }, async (a) => {
        const url =
          a.path === './errors.js' ? pathToFileURL(join(proveDist, 'bundle', 'errors.js')).href : isBuiltin(a.path) ? a.path : pathToFileURL(proveRequire.resolve(a.path)).href;
        const names = Object.keys(await import(url)).filter((n) => n !== 'default' && /^[A-Za-z_$][\w$]*$/.test(n) && !RESERVED.has(n));
        const contents = [
          `const m = __ext(${JSON.stringify(a.path)});`,
          "export default m != null && m[Symbol.toStringTag] === 'Module' ? m.default : m;",
          ...names.map((n) => `export const ${n} = m.${n};`),
        ].join('\n');
        return { contents, loader: 'js' };
      });
    },
  };
  await build({
    entryPoints: [join(proveDist, 'cli', 'main.js')],
    outfile: scriptFile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    plugins: [external],
    logOverride: { 'direct-eval': 'silent' }, // @iarna/toml's eval("require('util').inspect"), in poisson-core's bundle: `require` is the script's
    define: { 'import.meta.url': '__import_meta_url', 'import.meta.resolve': '__import_meta_resolve' },
    // No source map: Node 20 maps no vm.Script's stack traces, and under --enable-source-maps the bin
    // runs the ES module bundle, whose maps go down to src/.
    banner: {
      js: comment(
        [
          "poisson-prove's CLI as one script for bin/poisson-prove.js, by scripts/bundle-dist.mjs (its own modules,",
          'poisson-core, poisson-stats, and the libraries below).',
          ...['@iarna/toml', 'hyparquet', 'hyparquet-writer', 'hysnappy'].map((d) => `\n${notice(d, prove)}`),
        ].join('\n'),
      ),
    },
  });
  // Every dynamic import() (found by TypeScript's parser, so none inside a string is touched) becomes
  // __load(), the same length, so the columns of the lines stay as esbuild wrote them.
  const ts = (await import('typescript')).default;
  const text = readFileSync(scriptFile, 'utf8').replace(/^#!.*/, '');
  const sf = ts.createSourceFile(scriptFile, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const at = [];
  const visit = (n) => {
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) at.push(n.expression.getStart(sf));
    ts.forEachChild(n, visit);
  };
  visit(sf);
  let out = text;
  for (const p of at.sort((x, y) => y - x)) out = `${out.slice(0, p)}__load${out.slice(p + 'import'.length)}`;
  if (/^\s*(import|export)\s[^(]/m.test(out)) throw new Error(`${scriptFile}: an import or export statement is left`);
  // Its id, the last line: the cache file starts with it (src/cli/code-cache.ts), so no cache of another
  // build is used.
  writeFileSync(scriptFile, `${out}// cli-script ${createHash('sha256').update(out).digest('hex')}\n`);
}

/**
 * Writes the script's code cache by running the CLI through bin/poisson-prove.js on a small store: each
 * run starts from the cache the previous one wrote and adds the functions it compiled (V8 caches the
 * compiled functions of a script, not only its top level), so the cache holds what --help, sweep, runs,
 * diff and report run. The runs use a fixture target in a temporary folder, removed after.
 */
async function trainCache() {
  const bin = join(root, 'packages', 'prove', 'bin', 'poisson-prove.js');
  const { cacheFileName } = await import(pathToFileURL(join(proveDist, 'bundle', 'code-cache.js')).href);
  const cache = join(proveDist, 'bundle', cacheFileName(process.versions.v8, process.arch));
  const work = mkdtempSync(join(tmpdir(), 'poisson-code-cache-'));
  try {
    rmSync(cache, { force: true });
    const target = join(work, 'target.mjs');
    writeFileSync(target, "export const coin = (cfg) => ({ outcome: cfg.seed % 2 === 0 ? 'passed' : 'failed', t: cfg.seed % 5, meta: { note: 'coin' } });\n");
    const spec = join(work, 'sweep.toml');
    writeFileSync(spec, 'target_id = "cache"\nt_unit = "turns"\nreplicates = 8\n[axes.slack]\ntype = "continuous"\nvalues = [4]\n');
    const store = join(work, 'runs');
    const sweep = ['--store', store, 'sweep', spec, '--target', `${target}:coin`, '--max-mde', '0.99', '--salt', '0123456789abcdef', '--yes'];
    for (const args of [
      ['--help'],
      [...sweep, '--json'],
      sweep,
      ['--store', store, 'runs'],
      ['--store', store, 'diff', '#1', '#2', '--json'],
      ['--store', store, 'diff', '#1', '#2'],
    ]) {
      const r = spawnSync(process.execPath, [bin, ...args], {
        cwd: work,
        encoding: 'utf8',
        env: { ...process.env, POISSON_PROVE_CODE_CACHE: cache, POISSON_PROVE_CODE_CACHE_WRITE: '1' },
      });
      if (r.status !== 0) throw new Error(`poisson-prove ${args.join(' ')} exited ${r.status} while writing the code cache:\n${r.stderr}`);
    }
    if (!existsSync(cache)) throw new Error(`no code cache written at ${cache}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
await trainCache();
