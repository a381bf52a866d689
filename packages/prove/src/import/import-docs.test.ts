import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderImportDoc } from './__fixtures__/import-docs.js';

describe('docs/import.md', () => {
  it('is what running its examples prints (run `npm run -w packages/prove docs:import` when this fails)', async () => {
    const onDisk = readFileSync(new URL('../../../../docs/import.md', import.meta.url), 'utf8');
    expect(onDisk).toBe(await renderImportDoc());
  }, 60_000);
});
