// A review (fifth session of 2026-12-07): resume and extend recorded nothing of the code they ran (their
// entries held only when, what and the command), so a target module edited between a sweep and its
// extend mixed two versions of the target's episodes in one run, silently: the diff read them as one
// target's. A run now records its module's sha256 (provenance.target_sha256) and each resume's and
// extension's code (git state and the module's sha256); inspect names an invocation whose code differs,
// and the CLI's resume and extend say so on stderr before they run.
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryIo, removeDir, tempDir } from '../__fixtures__/helpers.js';
import { runCli } from '../cli/run-cli.js';
import { extend } from '../executor/resume.js';
import { sweep } from '../executor/sweep.js';
import { codeChanges } from './code-changes.js';

const SPEC = `target_id = "code"
t_unit = "steps"
replicates = 8

[axes.slack]
type = "continuous"
values = [1, 2]
`;
const MODULE = `export async function walk(cfg) { return { outcome: 'passed', t: 1 }; }\n`;
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

let dir: string;
beforeEach(async () => {
  dir = await tempDir('prove-code-');
  await writeFile(join(dir, 'target.mjs'), MODULE);
});
afterEach(async () => {
  await removeDir(dir);
});

describe('the code a run, its resumes and its extensions ran', () => {
  it("records the module's sha256, and names an extend that ran an edited module (library and inspect)", async () => {
    const m0 = await sweep({ spec: SPEC, target: `${join(dir, 'target.mjs')}:walk`, store: join(dir, 'store'), maxMde: 0.99, salt: 'code', cwd: dir });
    expect(m0.provenance.target_sha256).toBe(sha256(MODULE));
    expect(codeChanges(m0)).toEqual([]);
    const same = await extend({ store: join(dir, 'store'), ref: m0.run_id, replicates: 1, cwd: dir });
    expect(same.extensions[0]?.code?.target_sha256).toBe(sha256(MODULE));
    expect(codeChanges(same)).toEqual([]);
    const edited = `${MODULE}// edited\n`;
    await writeFile(join(dir, 'target.mjs'), edited);
    const m2 = await extend({ store: join(dir, 'store'), ref: m0.run_id, replicates: 1, cwd: dir });
    expect(m2.extensions[1]?.code?.target_sha256).toBe(sha256(edited));
    const changes = codeChanges(m2);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatch(/^extend at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: the target module's bytes changed \(sha256 [0-9a-f]{12}… as the run was made, [0-9a-f]{12}… at that extend\)$/);
    const io = memoryIo({ cwd: dir });
    expect(await runCli(['--store', join(dir, 'store'), 'inspect', m0.run_id], io)).toBe(0);
    expect(io.out()).toMatch(/code\s+its episodes come from more than one version of the target: extend at .*the target module's bytes changed/);
  });

  it('the CLI says so on stderr before an extend of an edited module runs, and not for an unchanged one', async () => {
    const m0 = await sweep({ spec: SPEC, target: `${join(dir, 'target.mjs')}:walk`, store: join(dir, 'store'), maxMde: 0.99, salt: 'code2', cwd: dir });
    const quiet = memoryIo({ cwd: dir });
    expect(await runCli(['--store', join(dir, 'store'), 'extend', m0.run_id, '--replicates', '1', '--quiet'], quiet)).toBe(0);
    expect(quiet.err()).not.toContain('another version of the target');
    await writeFile(join(dir, 'target.mjs'), (await readFile(join(dir, 'target.mjs'), 'utf8')).replace("t: 1", 't: 2'));
    const io = memoryIo({ cwd: dir });
    expect(await runCli(['--store', join(dir, 'store'), 'extend', m0.run_id, '--replicates', '1', '--quiet'], io)).toBe(0);
    expect(io.err()).toMatch(/^extend: the target module's bytes changed \(sha256 [0-9a-f]{12}… as the run was made, [0-9a-f]{12}… now\): the episodes this extend adds would come from another version of the target than the run's/m);
  });

  it("a run.json whose entry's code is not { git, target_sha256 } is named as damaged, not an internal error", async () => {
    const m0 = await sweep({ spec: SPEC, target: `${join(dir, 'target.mjs')}:walk`, store: join(dir, 'store'), maxMde: 0.99, salt: 'code3', cwd: dir });
    await extend({ store: join(dir, 'store'), ref: m0.run_id, replicates: 1, cwd: dir });
    const file = join(dir, 'store', m0.run_id, 'run.json');
    for (const code of [null, {}, { git: null, target_sha256: 'abc' }]) {
      const m = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      (m['extensions'] as Record<string, unknown>[])[0]!['code'] = code;
      await writeFile(file, JSON.stringify(m));
      const io = memoryIo({ cwd: dir });
      await runCli(['--store', join(dir, 'store'), 'inspect', m0.run_id], io);
      expect(io.err()).not.toContain('internal error');
      expect(io.err() + io.out()).toContain('extensions[0].code is not absent or { git, target_sha256 }');
    }
  });

  it('the CLI does not warn before a resume with nothing to run (a complete run)', async () => {
    const m0 = await sweep({ spec: SPEC, target: `${join(dir, 'target.mjs')}:walk`, store: join(dir, 'store'), maxMde: 0.99, salt: 'code3', cwd: dir });
    await writeFile(join(dir, 'target.mjs'), `${MODULE}// edited\n`);
    const io = memoryIo({ cwd: dir });
    expect(await runCli(['--store', join(dir, 'store'), 'resume', m0.run_id, '--quiet'], io)).toBe(0);
    expect(io.out()).toContain('nothing to do');
    expect(io.err()).not.toContain('another version of the target');
  });
});
