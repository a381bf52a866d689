import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachTempDir, FIXTURES, memoryIo } from '../../__fixtures__/helpers.js';
import { writeManifest, type RunManifest } from '../../store/manifest.js';
import { runCli } from '../run-cli.js';

// A review (third session of 2026-12-07): inspect did not say how a run was put together (no line for its
// resumes, or for a refresh of the model cache), and the usage of a run whose writer was SIGKILLed read as
// exact where it was a lower bound (a sweep killed 0.4 s in had recorded 1,849 of 56,046 tokens billed).
const HOOKS = `${join(FIXTURES, 'hook-targets.mjs')}:budgeted`;
const t = eachTempDir('inspect-resumes-');
/** The CLI in the test's directory: exit code and stdout. */
async function cli(args: string[]): Promise<{ code: number; out: string }> {
  const io = memoryIo({ cwd: t.dir });
  return { code: await runCli(args, io), out: io.out() };
}
const row = (out: string, label: string): string | undefined => out.split('\n').find((l) => l.startsWith(`${label} `))?.slice(label.length).trim();

describe('inspect: resumes, a refreshed cache, and usage after a kill', () => {
  it('names each resume and a kill, and says the usage of a killed writer is a lower bound', async () => {
    const dir = t.dir;
    await writeFile(join(dir, 'spec.toml'), 'target_id = "hooks"\nt_unit = "calls"\nreplicates = 8\n[axes.arm]\ntype = "categorical"\nvalues = ["a", "b"]\n');
    const swept = await cli(['--store', 's', 'sweep', 'spec.toml', '--target', HOOKS, '--max-mde', '1', '--yes', '--budget-tokens', '1000', '--refresh-cache', '--json']);
    expect(swept.code).toBe(0);
    const m = JSON.parse(swept.out) as RunManifest;
    const plain = await cli(['--store', 's', 'inspect', m.run_id]);
    expect(row(plain.out, 'resumes')).toBeUndefined();
    expect(row(plain.out, 'lower bound')).toBeUndefined();
    expect(row(plain.out, 'refresh')).toMatch(/^the model cache was refreshed from \S+ on: answers written before that were called again$/);
    // The writer killed after its last part: run.json says running, and its process is gone.
    const manifest = JSON.parse(await readFile(join(dir, 's', m.run_id, 'run.json'), 'utf8')) as RunManifest;
    await writeManifest(join(dir, 's'), { ...manifest, status: 'running', finished: null, provenance: { ...manifest.provenance, pid: 2 ** 22 + 12345 } });
    const killed = await cli(['--store', 's', 'inspect', m.run_id]);
    expect(row(killed.out, 'lower bound')).toBe("the run's writer was killed: the calls it made after its last usage write (up to 0.25 s of calls, and those in flight at the kill) were paid for but are in no count above; the provider's bill is the sure figure");
    const resumed = await cli(['--store', 's', 'resume', '--trust-store', m.run_id, '--json']);
    expect(resumed.code).toBe(0);
    const after = await cli(['--store', 's', 'inspect', m.run_id]);
    expect(row(after.out, 'resumes')).toMatch(/^at \S+: 0 missing pairs, after its writer was killed$/);
    expect(row(after.out, 'lower bound')).toMatch(/^the run was resumed after its writer was killed \(\S+\): the calls it made after its last usage write/);
  });
});
