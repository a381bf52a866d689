// Run in a child process by loaded-files.test.ts (vitest's own loader does not go through Node's module
// hooks): loads a target that imports a helper, edits the helper, puts its bytes back, loads a second
// module later, and prints what LoadedFiles.changed() says at each step as one JSON line.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { watchLoadedFiles } from '../executor/loaded-files.js';
import { loadTarget } from '../target/load-target.js';

const dir = await mkdtemp(join(tmpdir(), 'prove-loaded-'));
const helper = join(dir, 'helper.mjs');
const later = join(dir, 'later.mjs');
await writeFile(helper, 'export const outcome = "passed";\n');
await writeFile(later, 'export const x = 1;\n');
await writeFile(join(dir, 'target.mjs'), 'import { outcome } from "./helper.mjs";\nexport const t = () => ({ outcome, t: 1 });\n');
const loaded = watchLoadedFiles();
const same = watchLoadedFiles() === loaded;
const { fn } = await loadTarget(`${join(dir, 'target.mjs')}:t`, dir);
const ran = await fn({} as never, {} as never);
while (!loaded.loaded().some((f) => f.endsWith('helper.mjs'))) await new Promise((resolve) => setImmediate(resolve));
const before = await loaded.changed();
await writeFile(helper, 'export const outcome = "failed";\n');
const edited = await loaded.changed();
await writeFile(helper, 'export const outcome = "passed";\n');
const restored = await loaded.changed();
await import(pathToFileURL(later).href);
// Its load is posted from the loader's thread: wait until it is recorded, turn by turn (no fixed sleep).
while (!loaded.loaded().some((f) => f.endsWith('later.mjs'))) await new Promise((resolve) => setImmediate(resolve));
await writeFile(later, 'export const x = 2;\n');

const laterEdited = await loaded.changed();
console.log(JSON.stringify({ dir, same, ran, before, edited, restored, laterEdited }));
