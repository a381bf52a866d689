import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../__fixtures__/helpers.js';
import { builtEntry } from './worker-backend.js';

// A package laid out as prove's: src/executor/worker-backend.ts (the module asking), dist/executor/worker-entry.js
// and dist/.tsbuildinfo, with their modification times set (seconds since the epoch).
let dir: string;
beforeEach(async () => {
  dir = await tempDir('prove-built-entry-');
  mkdirSync(join(dir, 'src/executor'), { recursive: true });
  mkdirSync(join(dir, 'dist/executor'), { recursive: true });
});
afterEach(async () => {
  await removeDir(dir);
});

function file(rel: string, mtime: number): void {
  writeFileSync(join(dir, rel), '');
  utimesSync(join(dir, rel), mtime, mtime);
}
/** prove's own build, current. */
function proveBuilt(): void {
  file('src/executor/worker-backend.ts', 1_000);
  file('dist/executor/worker-entry.js', 2_000);
  file('dist/.tsbuildinfo', 2_000);
}
const here = (): string => pathToFileURL(join(dir, 'src/executor/worker-backend.ts')).href;

describe('builtEntry (worker threads start from the build when it is current)', () => {
  it('takes the build after an edit of another file and a build, though tsc left the entry as it was', () => {
    file('src/executor/worker-backend.ts', 1_000);
    file('src/executor/run-episode.ts', 3_000); // edited, then built: tsc rewrote run-episode.js and its record
    file('dist/executor/worker-entry.js', 2_000); // unchanged output, not rewritten
    file('dist/.tsbuildinfo', 3_500);
    expect(builtEntry(here())?.href).toBe(pathToFileURL(join(dir, 'dist/executor/worker-entry.js')).href);
  });

  it('runs from source when a source is newer than the last build', () => {
    file('src/executor/worker-backend.ts', 4_000);
    file('dist/executor/worker-entry.js', 3_500);
    file('dist/.tsbuildinfo', 3_500);
    expect(builtEntry(here())).toBeNull();
  });

  it('runs from source when there is no build, or no record of one', () => {
    file('src/executor/worker-backend.ts', 1_000);
    expect(builtEntry(here())).toBeNull();
    file('dist/executor/worker-entry.js', 2_000);
    expect(builtEntry(here())).toBeNull();
  });

  // The built workers import the other workspace packages (poisson-tasks, poisson-core) from their builds
  // too: an edit of poisson-tasks' source after its last build would run there as it was before the edit.
  it('runs from source when another package the workers import has a source newer than its build', () => {
    proveBuilt();
    const tasks = join(dir, 'tasks');
    mkdirSync(join(tasks, 'src/internal'), { recursive: true });
    mkdirSync(join(tasks, 'dist'), { recursive: true });
    file('tasks/src/internal/rng.ts', 1_500);
    file('tasks/dist/.tsbuildinfo', 1_800);
    expect(builtEntry(here(), [tasks])?.href).toBe(pathToFileURL(join(dir, 'dist/executor/worker-entry.js')).href);
    file('tasks/src/internal/rng.ts', 1_900); // edited after its build
    expect(builtEntry(here(), [tasks])).toBeNull();
    file('tasks/dist/.tsbuildinfo', 1_950); // built again
    expect(builtEntry(here(), [tasks])).not.toBeNull();
  });

  it('runs from source when another package has sources and no record of a build', () => {
    proveBuilt();
    const core = join(dir, 'core');
    mkdirSync(join(core, 'src'), { recursive: true });
    file('core/src/index.ts', 1_000);
    expect(builtEntry(here(), [core])).toBeNull();
  });

  it('does not ask a package without sources (as installed from the registry)', () => {
    proveBuilt();
    const stats = join(dir, 'stats');
    mkdirSync(join(stats, 'dist'), { recursive: true });
    expect(builtEntry(here(), [stats])).not.toBeNull();
  });
});
