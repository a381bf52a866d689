// The build's threads (the read thread, the part encoder and the bounded parse) load the build's one-file bundle of the
// parquet libraries (dist/vendor/parquet-libs.js, what `#parquet-libs` resolves to outside the source
// condition), not hyparquet's and hyparquet-writer's ~50 files; from source (every other test) they load
// those files. This runs the build's modules (dist/store/, plain Node) in a child process and checks that
// each thread answered: a thread that cannot load its modules answers nothing, and its callers would
// quietly do the work themselves (the read's and the encoder's other tests could not tell).
import { spawnSync } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRun, tempStore } from '../src/diff/__fixtures__/build-run.js';
import type { RunManifest } from '../src/store/manifest.js';

const DIST = fileURLToPath(new URL('../dist/store/', import.meta.url));
const SPEC = ['target_id = "t"', 't_unit = "turns"', 'replicates = 40', '[axes.slack]', 'type = "continuous"', 'values = [1, 2]', ''].join('\n');

let dir: string;
let store: string;
let manifest: RunManifest;
beforeAll(async () => {
  dir = await tempStore();
  store = join(dir, 'store');
  manifest = await buildRun(store, { specText: SPEC, partRows: 30, outcomes: (_c, r) => (r % 4 === 0 ? 'failed' : 'passed') });
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

/**
 * Runs `code` (an ES module, written to a file: a worker started from `node --input-type=module -e` would
 * inherit that flag and read its own CommonJS program as a module) in a child Node with the build's
 * store modules at `DIST`; its stdout as JSON.
 */
async function child(code: string, how: 'file' | 'eval' = 'file'): Promise<unknown> {
  const file = join(dir, `child-${Math.random().toString(16).slice(2)}.mjs`);
  await writeFile(file, code);
  const args = how === 'file' ? [file] : ['--input-type=module', '-e', code];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, DIST } });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** A script opening each part of the run on the read thread: per part, what it decoded there (null: no answer, its modules did not load). */
const read = (): string => `
  const dist = process.env.DIST;
  const { resolveRun } = await import(dist + 'resolve-run.js');
  const { runParts, openPartOnThread } = await import(dist + 'verify-parts.js');
  const m = await resolveRun(${JSON.stringify(store)}, ${JSON.stringify(manifest.run_id)});
  const out = [];
  for (const part of await runParts(${JSON.stringify(store)}, m)) {
    const open = await openPartOnThread(m, part, ['condition', 'replicate_index', 'outcome']);
    const flat = open === null ? null : open.flat(['outcome', 'replicate_index']);
    out.push(flat === null ? null : { rows: flat.rows, kinds: flat.columns.map((c) => c && c.kind) });
  }
  console.log(JSON.stringify(out));
`;
const PARTS = [
  { rows: 30, kinds: ['strings', 'numbers'] },
  { rows: 30, kinds: ['strings', 'numbers'] },
  { rows: 20, kinds: ['strings', 'numbers'] },
];

const ENCODE = `
  const { encodePart } = await import(process.env.DIST + 'part-encoder.js');
  const columnData = [
    { name: 'replicate_index', type: 'INT32', data: Int32Array.from([0, 1, 2]) },
    { name: 'outcome', type: 'STRING', data: ['passed', null, 'failed'] },
  ];
  const there = await encodePart(columnData, 3, { thread: true });
  const here = await encodePart(columnData, 3, { thread: false });
  console.log(JSON.stringify({ where: there.where, same: there.sha256 === here.sha256 }));
`;

describe("the build's threads", () => {
  it('read: the read thread answers for each part, with its columns decoded there', async () => {
    expect(await child(read())).toEqual(PARTS);
  });

  it('encode: the encoder thread encodes a part to the same bytes as the calling thread', async () => {
    expect(await child(ENCODE)).toEqual({ where: 'thread', same: true });
  });

  it('parse: the bounded parse (a part no checksum vouches for) reads its rows on its thread', async () => {
    const got = await child(`
      const { readFileSync, readdirSync } = await import('node:fs');
      const { readPartIsolated } = await import(process.env.DIST + 'parquet.js');
      const dir = ${JSON.stringify(join(store, manifest.run_id, 'episodes'))};
      const file = readdirSync(dir).sort()[0];
      const rows = await readPartIsolated(readFileSync(dir + '/' + file), file, ['replicate_index', 'outcome']);
      console.log(JSON.stringify({ rows: rows.length, first: rows[0] }));
    `);
    expect(got).toEqual({ rows: 30, first: { replicate_index: 0, outcome: 'failed' } });
  });

  it('start in a process run as `node --input-type=module -e` (a worker inherits the flag: its CommonJS program failed, and every part was encoded and read inline)', async () => {
    expect(await child(ENCODE, 'eval')).toEqual({ where: 'thread', same: true });
    expect(await child(read(), 'eval')).toEqual(PARTS);
  });
});
