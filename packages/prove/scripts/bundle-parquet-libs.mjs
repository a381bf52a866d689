// Writes dist/vendor/parquet-libs.js: dist/store/parquet-libs.js (hyparquet and hyparquet-writer,
// re-exported) bundled with esbuild into one ES module, which package.json's "imports" maps
// `#parquet-libs` to outside the source condition. Loading the 51 files of the two libraries one by one
// took about 30 ms of every CLI process's start-up; the one file takes a few. Run by `npm run build`.
import { build } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Each bundled package's name, version and license text, at the top of the file (their MIT licenses ask
// that the notice go with every copy).
const notices = ['hyparquet', 'hyparquet-writer'].map((name) => {
  let dir = dirname(fileURLToPath(import.meta.resolve(name)));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  const { version, license } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const text = readFileSync(join(dir, 'LICENSE'), 'utf8').trim();
  return `${name} ${version} (${license}):\n${text}`;
});
const banner = `/*\n * Bundled by scripts/bundle-parquet-libs.mjs from:\n *\n${notices.join('\n\n').split('\n').map((l) => ` * ${l}`.trimEnd()).join('\n')}\n */`;

await build({
  entryPoints: [fileURLToPath(new URL('../dist/store/parquet-libs.js', import.meta.url))],
  outfile: fileURLToPath(new URL('../dist/vendor/parquet-libs.js', import.meta.url)),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  legalComments: 'inline',
  banner: { js: banner },
  logLevel: 'warning',
});
