// Bundles, after tsc, the modules every CLI process loads many files of into one file each (esbuild, one
// ES module): in Node 20 each module file costs roughly half a millisecond to resolve, read and compile,
// so a sweep process that loaded ~230 of them spent more time loading than sweeping. Run by
// `npm run build`; the packages map to the bundles outside the "source" condition (tests and tsx with
// --conditions=source keep the modules themselves).
//   packages/prove/dist/vendor/parquet-libs.js  hyparquet + hyparquet-writer (51 files), `#parquet-libs`
//                                               in packages/prove/package.json "imports"
//   packages/*/dist/bundle/                     each package's own modules (core 7, stats 25, tasks 30,
//                                               prove ~200 files), the "default" of its package.json
//                                               "exports" (and prove's bin, bundle/main.js); their
//                                               dependencies stay where they are (external), and the
//                                               entries of one package share chunks, so each class
//                                               exists once in a process
import { build } from 'esbuild';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
  `Bundled by scripts/bundle-dist.mjs from:\n\n${['hyparquet', 'hyparquet-writer'].map((n) => notice(n, prove)).join('\n\n')}`,
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
  ['prove', ['index', 'cli/main', 'executor/worker-entry']],
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
