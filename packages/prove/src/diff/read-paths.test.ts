// export, report and inspect give, byte for byte, what the row-based readers gave (read-paths.json,
// written by __fixtures__/gen-read-paths.ts at commit 3a58736, before the columnar export, report and inspect):
// on runs with retried (superseded) rows, scores with gaps, hard failures, a partial run and imports.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempStore } from './__fixtures__/build-run.js';
import { pinOutputs, readPathOutputs, writeReadPathRuns, type PinnedOutput } from './__fixtures__/read-paths.js';

let dir: string;
let outputs: Record<string, PinnedOutput>;
let rowOutputs: Record<string, PinnedOutput>;
let pinned: Record<string, PinnedOutput>;
beforeAll(async () => {
  dir = await tempStore();
  const store = join(dir, 'store');
  const runs = await writeReadPathRuns(store);
  // The CLI's reads (report's columnar read), and report given rows through the library (readRunForDiff).
  outputs = pinOutputs(await readPathOutputs(store, runs, { report: 'columns' }));
  rowOutputs = pinOutputs(await readPathOutputs(store, runs, { report: 'rows' }));
  pinned = JSON.parse(await readFile(new URL('./__fixtures__/read-paths.json', import.meta.url), 'utf8')) as Record<string, PinnedOutput>;
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('export, report and inspect outputs are unchanged', () => {
  it('covers the same cases as the pinned outputs', () => {
    expect(Object.keys(outputs).sort()).toEqual(Object.keys(pinned).sort());
    expect(Object.keys(pinned).length).toBeGreaterThan(20);
  });
  it.each(['export A B', 'export B', 'export B by', 'export A B by', 'export A B cluster', 'export B cluster', 'export A C partial', 'export B C partial by', 'export C refused', 'export A bad by', 'export I1 I2', 'export I1 I2 by', 'report A B slack strictness', 'report A B task', 'report A B slack cluster', 'report A B no event', 'report A B C panels', 'report I1 I2', 'report A D unpaired', 'report B D unpaired cluster', 'inspect A', 'inspect A failed', 'inspect A none', 'inspect B truncated', 'inspect C', 'inspect I1', 'runs'])('%s', (name) => {
    const now = outputs[name];
    const then = pinned[name];
    expect(now).toBeDefined();
    if (then?.text !== undefined) expect(now?.text).toBe(then.text);
    expect({ chars: now?.chars, sha256: now?.sha256 }).toEqual({ chars: then?.chars, sha256: then?.sha256 });
    expect(rowOutputs[name]).toEqual(then);
  });
});
