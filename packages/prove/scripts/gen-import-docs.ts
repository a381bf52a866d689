// Writes docs/import.md by running its examples (src/import/__fixtures__/import-docs.ts).
// Usage: npm run -w packages/prove docs:import   (src/import/import-docs.test.ts fails when docs/import.md is stale)
import { writeFileSync } from 'node:fs';
import { renderImportDoc } from '../src/import/__fixtures__/import-docs.js';

const out = new URL('../../../docs/import.md', import.meta.url);
writeFileSync(out, await renderImportDoc());
console.log(`wrote ${out.pathname}`);
