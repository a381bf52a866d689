// Writes docs/cli.md from the CLI's command definitions (the same data the parser reads).
// Usage: npm run -w packages/prove docs:cli   (src/cli/docs.test.ts fails when docs/cli.md is stale)
import { writeFileSync } from 'node:fs';
import { commands } from '../src/cli/commands/index.js';
import { cliMarkdown } from '../src/cli/help.js';

const out = new URL('../../../docs/cli.md', import.meta.url);
writeFileSync(out, cliMarkdown(commands));
console.log(`wrote ${out.pathname}`);
