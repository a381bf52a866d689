// After a sweep is SIGKILLed, every hint that names the resume that finishes the run (runs' "writer gone",
// inspect's status, the refusal of a read without --partial, the refusal of an extend, the run page) must
// work as printed. A review (2026-12-07): with the target's module outside the working tree they printed
// `resume RUN` without --trust-store (and the read's refusal without --store), which resume refuses (exit 2);
// only resume's own refusal named the flag. Each printed command is run here, through a shell.
import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRuns } from '../src/index.js';
import { removeDir, tempDir } from '../src/__fixtures__/helpers.js';
import { MAIN, run, start, waitForEntries } from './helpers.js';

let dir: string;
beforeAll(async () => {
  dir = await tempDir('prove-killed-hints-');
});
afterAll(async () => {
  await removeDir(dir);
});

const SPEC = `target_id = "hints"
t_unit = "turns"
replicates = 60

[axes.slack]
type = "continuous"
values = [4, 8]
`;

/** The resume commands a text names for run `id`: `poisson-prove [--store S] resume [flags] ID`. */
function resumeCommands(text: string, id: string): string[] {
  return [...text.matchAll(new RegExp(`poisson-prove (?:--store \\S+ )?resume (?:--\\S+ )*${id}`, 'g'))].map((m) => m[0]);
}

/** Runs a printed command through sh in `cwd`, with poisson-prove the built CLI. */
function runPrinted(command: string, cwd: string): { code: number | null; stderr: string } {
  const line = command.replace(/^poisson-prove /, `'${process.execPath}' '${MAIN}' `);
  const r = spawnSync('sh', ['-c', line], { cwd, encoding: 'utf8' });
  return { code: r.status, stderr: r.stderr };
}

describe('the resume a killed run\'s hints name', () => {
  it('carries --store and --trust-store where resume needs them, and runs as printed', async () => {
    // The target's module lies outside the directory the commands run in, which is no git work tree.
    const work = join(dir, 'work');
    const store = join(work, 'store');
    await mkdir(store, { recursive: true });
    await mkdir(join(dir, 'elsewhere'));
    await writeFile(join(dir, 'elsewhere', 'slow.mjs'), 'export const slow = (cfg) => new Promise((r) => setTimeout(() => r({ outcome: cfg.seed % 2 === 0 ? "passed" : "failed", t: 1 }), 15));\n');
    await writeFile(join(work, 'spec.toml'), SPEC);
    const sweep = start(['--store', store, 'sweep', 'spec.toml', '--target', '../elsewhere/slow.mjs:slow', '--max-mde', '0.99', '--salt', 'hints', '--yes', '--json', '--part-rows', '3', '--concurrency', '1'], { cwd: work });
    const runDir = await waitForEntries(store, (names) => names.some((n) => /^\d{8}T/.test(n)), sweep.done);
    const id = runDir?.find((n) => /^\d{8}T/.test(n)) as string;
    expect(id).toBeDefined();
    expect(await waitForEntries(join(store, id), (names) => names.includes('episodes'), sweep.done)).not.toBeNull();
    expect(await waitForEntries(join(store, id, 'episodes'), (names) => names.some((n) => n.endsWith('.parquet')), sweep.done)).not.toBeNull();
    sweep.child.kill('SIGKILL');
    const killed = await sweep.done;
    expect({ signal: killed.signal, stderr: killed.stderr }).toEqual({ signal: 'SIGKILL', stderr: '' });
    expect((await listRuns(store))[0]?.status).toBe('running');

    const runs = await run(['--store', store, 'runs'], { cwd: work });
    expect(runs.stdout).toContain('running, writer gone');
    const inspect = await run(['--store', store, 'inspect', id], { cwd: work });
    const diff = await run(['--store', store, 'export', id], { cwd: work });
    const extend = await run(['--store', store, 'extend', id, '--replicates', '2'], { cwd: work });
    expect([diff.code, extend.code], diff.stderr + extend.stderr).toEqual([2, 2]);
    const view = await run(['--store', store, 'view', id, '--out', join(work, 'run.html')], { cwd: work });
    expect(view.code).toBe(0);
    const page = (await readFile(join(work, 'run.html'), 'utf8')).replaceAll('&quot;', '"').replaceAll('&#39;', "'");
    const printed = { runs: resumeCommands(runs.stdout, id), inspect: resumeCommands(inspect.stdout, id), diff: resumeCommands(diff.stderr, id), extend: resumeCommands(extend.stderr, id), view: resumeCommands(page, id) };
    for (const [where, commands] of Object.entries(printed)) {
      expect(commands.length, where).toBeGreaterThan(0);
      for (const c of commands) expect(c, where).toMatch(new RegExp(`^poisson-prove --store \\S+ resume --trust-store ${id}$`));
    }
    // Each distinct command works as printed: the first finishes the run, the others find nothing to do.
    for (const c of new Set(Object.values(printed).flat())) expect(runPrinted(c, work), c).toEqual({ code: 0, stderr: expect.any(String) });
    const [m] = await listRuns(store);
    expect([m?.status, m?.counts.rows]).toEqual(['complete', 120]);
    expect((await readdir(join(store, id, 'episodes'))).length).toBeGreaterThan(1);
  }, 60_000);
});
