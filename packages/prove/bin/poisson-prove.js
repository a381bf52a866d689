#!/usr/bin/env node
// The poisson-prove command. A committed file, so that `npm ci` links it before the first build; the CLI
// itself is the build's (run `npm run build` first), in one of two forms (scripts/bundle-dist.mjs):
// - dist/bundle/cli-script.js, compiled with V8's code cache of it (dist/bundle/cli-script.<v8>-<arch>.cache,
//   dist/bundle/code-cache.js), when this Node's V8 made that cache and Node requires ES modules (>= 20.19);
// - else the ES module bundle, dist/bundle/main.js (also under --enable-source-maps, which maps its stack
//   traces to src/ and a vm.Script's not). Both run the same modules.
// A cache V8 rejects (other flags, another script) is ignored: the script is compiled from its source.
// POISSON_PROVE_CODE_CACHE names another cache file (tests); with POISSON_PROVE_CODE_CACHE_WRITE=1 the
// process writes the script's cache there as it exits (the build).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const bundle = new URL('../dist/bundle/', import.meta.url);
const file = fileURLToPath(new URL('cli-script.js', bundle));
const write = process.env.POISSON_PROVE_CODE_CACHE_WRITE === '1';

if (process.features.require_module !== true || process.sourceMapsEnabled || !existsSync(file)) {
  await import('../dist/bundle/main.js');
} else {
  const { cacheFileName, compileCliScript } = await import('../dist/bundle/code-cache.js');
  const cache = process.env.POISSON_PROVE_CODE_CACHE || fileURLToPath(new URL(cacheFileName(process.versions.v8, process.arch), bundle));
  if (!write && !existsSync(cache)) {
    await import('../dist/bundle/main.js');
  } else {
    const compiled = compileCliScript(file, readFileSync(file, 'utf8'), write && !existsSync(cache) ? undefined : readFileSync(cache));
    if (write) {
      process.on('exit', () => {
        writeFileSync(`${cache}.tmp`, compiled.createCache());
        renameSync(`${cache}.tmp`, cache);
      });
    }
    const url = new URL('cli-script.js', bundle).href;
    // Relative specifiers are the script's; bare ones resolve from bin/ as from dist/bundle/ (one package).
    const from = (s) => (s.startsWith('./') || s.startsWith('../') ? new URL(s, url).href : s);
    await compiled.run({ require: createRequire(file), load: (s) => import(from(s)), url, resolve: (s) => import.meta.resolve(from(s)) });
  }
}
