// Issue 14: a target that would refuse a condition (a pin mismatch) is found before the run is created
// and in --dry-run: exit 2 with every problem, nothing written. (It wrote a `complete` run of rows
// without an outcome, and --dry-run passed it.)
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { SPEC, listTree, memoryIo, removeDir, tempDir } from '../__fixtures__/helpers.js';
import type { Target, TargetConfig } from '../target/target.js';
import { planSweep, sweep } from './sweep.js';

let dir: string;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

/** Plays only slack 4 and strictness "lax" (as a pinned task target would), and says so through `check`. */
const pinned: Target = Object.assign((cfg: TargetConfig) => {
  if (cfg['slack'] !== 4) throw new Error('pin mismatch');
  return { outcome: 'passed', t: 1 };
}, {
  check: (cfg: TargetConfig) => [
    ...(cfg['slack'] !== 4 ? [`slack is ${String(cfg['slack'])} but the registration pins the number 4`] : []),
    ...(cfg['strictness'] !== 'lax' ? [`strictness is ${JSON.stringify(cfg['strictness'])} but the registration pins the string "lax"`] : []),
  ],
});

describe('the target check hook', () => {
  it('refuses the sweep before the run is created, listing every problem once with its conditions', async () => {
    const before = await listTree(dir);
    const err = await sweep({ spec: SPEC, target: pinned, store: `${dir}/store`, maxMde: 0.99 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_CHECK', exitCode: 2 });
    expect((err as { problems: string[] }).problems).toEqual([
      'the target refuses all 2 conditions: strictness is "strict" but the registration pins the string "lax"; nothing was written.',
      'the target refuses 1 of 2 conditions (slack 8 · strictness strict): slack is 8 but the registration pins the number 4; nothing was written.',
    ]);
    expect(await listTree(dir)).toEqual(before);
    await expect(planSweep({ spec: SPEC, target: pinned, store: `${dir}/store`, maxMde: 0.99 })).rejects.toMatchObject({ code: 'E_CHECK' });
  });

  it('sweep --dry-run exits 2 with one line per problem', async () => {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(`${dir}/t.mjs`, `export const pinned = Object.assign(() => ({ outcome: 'passed', t: 1 }), { check: (c) => (c.slack === 4 ? [] : ['slack is ' + c.slack + ' but the registration pins the number 4']) });\n`);
    await writeFile(`${dir}/spec.toml`, SPEC);
    const io = memoryIo({ cwd: dir });
    const code = await runCli(['--store', 'store', 'sweep', 'spec.toml', '--target', 't.mjs:pinned', '--max-mde', '0.99', '--dry-run'], io);
    expect(code).toBe(2);
    expect(io.err()).toBe('error: the target refuses 1 of 2 conditions (slack 8 · strictness strict): slack is 8 but the registration pins the number 4; nothing was written.\n');
    expect(await listTree(dir)).toEqual(['spec.toml', 't.mjs']);
  });

  // A review of the sixth session of 2026-12-06: a syntax error in a .ts target printed "failed to load:
  // Transform failed with 1 error:;" and nothing of where, or what, the error was.
  it('names where a .ts target does not parse: the line after esbuild\'s header', async () => {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(`${dir}/syn.ts`, 'export const x = (cfg: any => 1;\n');
    await writeFile(`${dir}/spec.toml`, SPEC);
    const io = memoryIo({ cwd: dir });
    expect(await runCli(['--store', 'store', 'sweep', 'spec.toml', '--target', 'syn.ts:x', '--max-mde', '0.99', '--yes'], io)).toBe(2);
    // Under the CLI tsx's esbuild names the file, line and column; under vitest its own parser words it.
    expect(io.err()).toMatch(new RegExp(`^error: the target module ${dir}/syn\\.ts failed to load: Transform failed with 1 error: [^\\u001b]*Expected[^\\n]+; fix the module and try again\\.\\n$`));
    expect(await listTree(dir)).toEqual(['spec.toml', 'syn.ts']);
  });
});

describe('a target module that fails to load with several problems (a malformed registration)', () => {
  it('prints every problem, one line each (149 of 210 printed "has 7 problems:" and stopped)', async () => {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      `${dir}/t.mjs`,
      "const e = new Error('the pre-registration has 3 problems:\\n  - slack is missing\\n  - horizon is -1\\n  - arms is empty');\ne.problems = ['slack is missing', 'horizon is -1', 'arms is empty'];\nthrow e;\n",
    );
    await writeFile(`${dir}/spec.toml`, SPEC);
    const io = memoryIo({ cwd: dir });
    const code = await runCli(['--store', 'store', 'sweep', 'spec.toml', '--target', 't.mjs:x', '--max-mde', '0.99', '--yes'], io);
    expect(code).toBe(2);
    const file = `${dir}/t.mjs`;
    expect(io.err()).toBe(
      [`error: the target module ${file} failed to load (1 of 3): slack is missing`, `error: the target module ${file} failed to load (2 of 3): horizon is -1`, `error: the target module ${file} failed to load (3 of 3): arms is empty`, ''].join('\n'),
    );
    expect(await listTree(dir)).toEqual(['spec.toml', 't.mjs']);
  });
});
