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

/** The name, version and license text of an installed package, for the bundle's banner. */
function notice(name, from) {
  let dir = dirname(fileURLToPath(import.meta.resolve(name, from)));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  const { version, license } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const text = readFileSync(join(dir, 'LICENSE'), 'utf8').trim();
  return `${name} ${version} (${license}):\n${text}`;
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
// (`../../package.json`, `../o200k-ranks.bin`) name the same files from either.
// poisson-prove's entries are its library, its CLI and the worker threads' entry (which the worker
// backend finds beside itself, ./worker-entry.js); its lazy imports (a verb's modules, the bullmq
// backend, Arrow) stay lazy as chunks of their own.
for (const [pkg, entries] of [
  ['core', ['index']],
  ['stats', ['index']],
  ['tasks', ['index', 'adapter']],
  ['prove', ['index', 'cli/main', 'executor/worker-entry']],
]) {
  const dir = join(root, 'packages', pkg, 'dist');
  rmSync(join(dir, 'bundle'), { recursive: true, force: true }); // no chunk of an earlier build left over
  await build({
    entryPoints: Object.fromEntries(entries.map((e) => [e.replace(/^.*\//, ''), join(dir, `${e}.js`)])),
    outdir: join(dir, 'bundle'),
    bundle: true,
    splitting: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    sourcemap: true, // composed with tsc's maps: --enable-source-maps shows src/ lines
    banner: { js: comment(`poisson-${pkg}, bundled from dist/ by scripts/bundle-dist.mjs (the package's own modules only).`) },
  });
}
