// Every command block in docs/ is produced by running it: scripts/docs-run.mjs runs each page's
// `console` blocks against the built CLI and this test fails when a page differs from what its commands
// print now (run ids, dates, times, durations, rates and hashes masked). Fix: `npm run build`, then
// `node scripts/docs-run.mjs PAGE` and read the change before committing it.
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types
import { firstDifference, mask, parseBlocks, renderPage } from '../scripts/docs-run.mjs';
// @ts-expect-error -- a plain .mjs script without types
import { PAGES } from '../scripts/docs-pages.mjs';

type Block = { start: number; end: number; commands: { shown: string[]; command: string }[] };

describe('docs-run', () => {
  it('reads commands, continuations and skips', () => {
    const page = [
      'text',
      '```console',
      '$ echo one \\',
      '    two',
      'old output',
      '$ true',
      '```',
      '<!-- docs-run: skip needs a provider key -->',
      '```console',
      '$ curl https://example.invalid',
      '```',
      '```sh',
      '$ not a console block',
      '```',
    ].join('\n');
    const { blocks } = parseBlocks(page) as { blocks: Block[] };
    expect(blocks).toHaveLength(1);
    expect(blocks[0]!.commands.map((c) => c.command)).toEqual(['echo one \\\n    two', 'true']);
    expect(blocks[0]!.commands[0]!.shown).toEqual(['$ echo one \\', '    two']);
  });

  it('masks what changes from run to run and nothing else', () => {
    const a = 'ok noisy-demo 2026-12-03 a (20261203T075109Z-a8d1) in 1.2 s, 7,375 episodes/s at 2026-12-03T07:51:09Z; 0.801';
    const b = 'ok noisy-demo 2026-12-04 a (20261204T101010Z-ffff) in 12 s, 512 episodes/s at 2026-12-04T10:10:10Z; 0.801';
    expect(mask(a)).toBe(mask(b));
    expect(mask(a)).not.toBe(mask(a.replace('0.801', '0.802')));
    expect(firstDifference('x\ny', 'x\nz')).toContain('line 2');
  });

  it('masks a date inside a percent-encoded file name (a run label with spaces in a claim file)', () => {
    const a = 'store/.claims/in-a-script%202026-12-03%20a';
    expect(mask(a)).toBe(mask('store/.claims/in-a-script%202026-12-04%20a'));
    expect(mask(a)).not.toBe(mask('store/.claims/in-a-script%202026-12-03%20b'));
  });

  for (const name of Object.keys(PAGES as Record<string, unknown>)) {
    it(`${name} shows what its commands print`, { timeout: 300_000 }, async () => {
      const { before, after } = (await renderPage(name)) as { before: string; after: string };
      const d = firstDifference(mask(before), mask(after));
      expect(d, `${name}: run \`node scripts/docs-run.mjs ${name}\` after \`npm run build\``).toBe('');
    });
  }
});
