import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachTempDir } from '../__fixtures__/helpers.js';
import { ProveError } from '../errors.js';
import { listRuns } from '../store/list-runs.js';
import { lmEvalLine } from './__fixtures__/harness-gen.js';
import { importRun } from './import-run.js';

// An import stopped (SIGINT in the CLI: its AbortSignal) leaves nothing behind: no run (the review's
// Ctrl-C left a run `running` that verify called damaged and gc did not remove), no directory, no
// claimed name. The signal here aborts at its k-th reading, for every k the import reads it, so each
// point where the import looks is tested without timing.

/** A signal that reads as aborted from its k-th reading of `aborted` on; `reads()` counts them. */
function abortingAt(k: number): { signal: AbortSignal; reads: () => number } {
  const ac = new AbortController();
  let n = 0;
  Object.defineProperty(ac.signal, 'aborted', { get: () => ++n >= k });
  return { signal: ac.signal, reads: () => n };
}

const t = eachTempDir('import-abort-');

async function samplesFile(rows: number): Promise<string> {
  const file = join(t.dir, 'samples_big_2025-08-01T10-00-00.000000.jsonl');
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) lines.push(lmEvalLine(i, `q ${i}`, i % 2 === 0 ? 'passed' : 'failed'));
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

describe('importRun stopped by its signal', () => {
  it('leaves no run, no directory and no claimed name in the store, wherever it is stopped (E_ABORTED, exit 130)', async () => {
    const file = await samplesFile(25_000); // 3 parts of 10,000 rows
    const store = join(t.dir, 'store');
    // How often an import that is not stopped reads its signal.
    const probe = abortingAt(Number.POSITIVE_INFINITY);
    await importRun(join(t.dir, 'probe'), { format: 'lm-eval', files: [file], signal: probe.signal });
    expect(probe.reads()).toBeGreaterThanOrEqual(4);
    for (let k = 1; k <= probe.reads(); k++) {
      const err = await importRun(store, { format: 'lm-eval', files: [file], name: 'big', signal: abortingAt(k).signal }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProveError);
      expect({ k, code: (err as ProveError).code, exit: (err as ProveError).exitCode }).toEqual({ k, code: 'E_ABORTED', exit: 130 });
      expect((err as ProveError).message).not.toContain('\n');
      expect(await listRuns(store)).toEqual([]);
      const left: string[] = await readdir(store).catch(() => []);
      expect({ k, left }).toEqual({ k, left: left.includes('.claims') ? ['.claims'] : [] });
      expect(await readdir(join(store, '.claims')).catch(() => [])).toEqual([]);
    }
    // Not stopped: the run is there, and named with the first letter (no name was left claimed).
    const r = await importRun(store, { format: 'lm-eval', files: [file], name: 'big' });
    expect(r.runs[0]?.name).toMatch(/^big \d{4}-\d{2}-\d{2} a$/);
    expect((await listRuns(store)).map((m) => m.status)).toEqual(['complete']);
  }, 60_000);
});
