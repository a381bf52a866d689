// Writes the five packages' tarballs (npm pack) into a folder, after a build, and prints their paths.
// Usage: npm run pack [-- DIR] [--no-build]   (default: ./packs; --no-build packs the build as it is:
// test/install.test.ts, which runs beside tests that read the build, must not rebuild it under them)
// Install them into another project with one `npm install` naming all five (see docs/install.md).
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const args0 = process.argv.slice(2);
const noBuild = args0.includes('--no-build');
const arg = args0.find((a) => a !== '--no-build');
const dest = arg === undefined ? join(root, 'packs') : isAbsolute(arg) ? arg : resolve(process.cwd(), arg);
const PACKAGES = ['core', 'stats', 'tasks', 'prove', 'models'];
mkdirSync(dest, { recursive: true });
if (!noBuild) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const args = ['pack', '--json', '--pack-destination', dest, ...PACKAGES.flatMap((p) => ['--workspace', `packages/${p}`])];
const res = spawnSync('npm', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
if (res.status !== 0) process.exit(res.status ?? 1);
for (const p of JSON.parse(res.stdout)) console.log(join(dest, p.filename));
