import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachTempDir } from '../__fixtures__/helpers.js';
import { ImportError } from './import-error.js';
import { importRun } from './import-run.js';

// A sample may appear once per task (docs/import.md, "Bad input"). A review (2026-12-07): a log holding
// sample 1 twice was refused, but with --axis metadata.topic, its two copies carrying other topics, it
// imported as 4 samples of 3: the duplicate check keyed on the condition, axis values included. Made from
// the real log ../../../../../shared/fixtures/harness-logs/inspect/2025-05-12T20-28-26-04-00_security-guide.json.
const LOG = new URL('../../../../../shared/fixtures/harness-logs/inspect/2025-05-12T20-28-26-04-00_security-guide.json', import.meta.url).pathname;

const t = eachTempDir('import-duplicate-axis-');

describe('a sample held twice, its copies of other metadata', () => {
  it('is refused with --axis as without it (exit 2, nothing written)', async () => {
    const log = JSON.parse(await readFile(LOG, 'utf8')) as { samples: Record<string, unknown>[] };
    for (const s of log.samples) s['metadata'] = { topic: 'a' };
    log.samples.push({ ...(structuredClone(log.samples[0]) as Record<string, unknown>), metadata: { topic: 'b' } });
    const file = join(t.dir, 'dup.json');
    await writeFile(file, JSON.stringify(log));
    const store = join(t.dir, 'store');
    const message = `${file}, samples[3]: repeats sample id 1 epoch 1 of security_guide (first at samples[0]); a sample may appear once per task: remove the duplicate, or import the files separately.`;
    for (const axes of [[], ['metadata.topic']]) {
      const err = await importRun(store, { format: 'inspect', files: [file], axes }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ImportError);
      expect((err as Error).message).toBe(message);
    }
    await expect(readdir(store)).rejects.toThrow();
  });
});
