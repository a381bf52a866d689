import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commands } from './commands/index.js';
import { cliMarkdown } from './help.js';

describe('docs/cli.md', () => {
  it('is what the command definitions generate (run `npm run -w packages/prove docs:cli` when this fails)', () => {
    const onDisk = readFileSync(new URL('../../../../docs/cli.md', import.meta.url), 'utf8');
    expect(onDisk).toBe(cliMarkdown(commands));
  });

  it('documents every verb and every option of the parser', () => {
    const md = cliMarkdown(commands);
    for (const c of commands) {
      expect(md).toContain(`## ${c.name}\n`);
      for (const name of Object.keys(c.options)) expect(md).toContain(`--${name}`);
    }
  });
});
