// End to end: SIGINT during `poisson-prove import` (the built CLI as a subprocess) leaves no run behind
// and exits 130 with one line. The signal is sent once the import has started writing (its staging
// directory appears in the store), never after a fixed sleep.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachTempDir } from '../src/__fixtures__/helpers.js';
import { lmEvalLine } from '../src/import/__fixtures__/harness-gen.js';
import { run, start, waitForEntries } from './helpers.js';

const t = eachTempDir('import-int-');

describe('poisson-prove import stopped by SIGINT', () => {
  it('removes what it wrote: no run listed, nothing in the store but its claims folder; exit 130, one line', async () => {
    const dir = t.dir;
    const file = join(dir, 'samples_big_2025-08-01T10-00-00.000000.jsonl');
    const lines: string[] = [];
    for (let i = 0; i < 150_000; i++) lines.push(lmEvalLine(i, `q ${i}`, i % 2 === 0 ? 'passed' : 'failed'));
    await writeFile(file, `${lines.join('\n')}\n`);
    const store = join(dir, 'store');
    await mkdir(store); // watched from the start
    const child = start(['--store', store, 'import', 'lm-eval', file, '--name', 'big'], { cwd: dir });
    const seen = await waitForEntries(store, (names) => names.some((n) => n.startsWith('.staging-') || /^\d{8}T/.test(n)), child.done);
    expect(seen).not.toBeNull(); // it was still writing when signalled
    child.child.kill('SIGINT');
    const done = await child.done;
    expect({ code: done.code, stderr: done.stderr }).toEqual({ code: 130, stderr: expect.stringMatching(/^error: the import was stopped \(SIGINT\/SIGTERM[^\n]*nothing was written to the store[^\n]*\n$/) });
    expect(done.stdout).toBe('');
    expect((await readdir(store)).filter((n) => n !== '.claims')).toEqual([]);
    expect(await readdir(join(store, '.claims')).catch(() => [])).toEqual([]);
    const runs = await run(['--store', store, 'runs', '--json'], { cwd: dir });
    expect(JSON.parse(runs.stdout)).toMatchObject({ runs: [] });
  }, 60_000);
});
