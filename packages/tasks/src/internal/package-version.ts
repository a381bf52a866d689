import { createRequire } from 'node:module';

// src/internal/ and dist/internal/ are both two levels below the package root, so the same relative
// path finds the package's own package.json from source (vitest) and from the build (node).
const require = createRequire(import.meta.url);

/** This package's version, read from its own package.json. */
export const PACKAGE_VERSION: string = (require('../../package.json') as { version: string }).version;
