// Issue 14: malformed specs and registrations, hundreds of seeded mutations of valid ones. Every one is
// refused by `poisson-prove sweep` with exit 2, one line per problem on stderr (no stack trace), and
// nothing written: the store directory is never created. Mutations are drawn with seedFor (sha256), so
// the test is the same on every run.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run-cli.js';
import { seedFor } from '../src/index.js';
import { listTree, memoryIo, removeDir, tempDir, TARGETS } from '../src/__fixtures__/helpers.js';

const VALID_SPEC = `target_id = "fuzz"
t_unit = "turns"
replicates = 8

[axes.slack]
type = "continuous"
values = [4, 8]

[axes.strictness]
type = "categorical"
values = ["strict", "lenient"]
`;
const VALID_REGISTRATION =
  'knob = "depth"\nstrictness = "strict"\nsplit = "eval"\ngenerator_version = "0"\nslack = 4\nhorizon = 8\narms = ["depth:d1", "depth:d3", "depth:d1+h3"]\n';
const ADAPTER = pathToFileURL(fileURLToPath(new URL('../../tasks/dist/adapter.js', import.meta.url))).href;
const TASKS = pathToFileURL(fileURLToPath(new URL('../../tasks/dist/index.js', import.meta.url))).href;

/** A deterministic stream of integers from seedFor. */
function draws(salt: string): (n: number) => number {
  let i = 0;
  return (n) => seedFor(salt, i++) % n;
}

/** One-line edits each of which makes a spec invalid on its own. */
const SPEC_MUTATIONS: ReadonlyArray<(s: string, pick: (n: number) => number) => string> = [
  (s) => s.replace('target_id = "fuzz"\n', ''),
  (s) => s.replace('t_unit = "turns"', 't_unit = ""'),
  (s) => s.replace('replicates = 8', 'replicates = 0'),
  (s) => s.replace('replicates = 8', 'replicates = 8.0'),
  (s) => s.replace('replicates = 8', 'replicates = "eight"'),
  (s) => s.replace('replicates = 8', 'replicates = 2147483648'),
  (s) => s.replace('replicates = 8', 'replicates = 9007199254740993'),
  (s) => s.replace('type = "continuous"', 'type = "ordinal"'),
  (s) => s.replace('values = [4, 8]', 'values = [4, 4]'),
  (s) => s.replace('values = [4, 8]', 'values = []'),
  (s) => s.replace('values = [4, 8]', 'values = ["4", 8]'),
  (s) => s.replace('values = ["strict", "lenient"]', 'values = ["strict", " lenient"]'),
  (s) => s.replace('values = ["strict", "lenient"]', 'values = ["strict", "a · b"]'),
  (s) => s.replace('values = ["strict", "lenient"]', 'values = ["strict", "caf\u00e9", "cafe\u0301"]'),
  (s) => s.replace('values = ["strict", "lenient"]', 'values = ["strict", "x\\u0007y"]'),
  (s) => s.replace('[axes.slack]', '[axes.seed]'),
  (s) => s.replace('[axes.slack]', '[axes.9slack]'),
  (s) => s.replace('target_id = "fuzz"', 'target_id = "org/fuzz"'),
  (s) => `${s}unknown_key = 1\n`.replace('unknown_key = 1\n', '').replace('t_unit', 'colour = "red"\nt_unit'),
  (s) => s.replace('type = "categorical"\n', 'type = "categorical"\nweight = 2\n'),
  (s) => s.replace('values = [4, 8]', 'values = [4, 8'),
  (s) => s.replace('t_unit = "turns"', 't_unit = "turns'),
  (s, pick) => s.replace('replicates = 8', `replicates = -${1 + pick(1000)}`),
  (s) => s.replace(/\[axes\.slack\][^[]*/, '').replace(/\[axes\.strictness\][^[]*/, ''),
];

/** One-line edits each of which makes a registration invalid on its own. */
const REGISTRATION_MUTATIONS: ReadonlyArray<(s: string, pick: (n: number) => number) => string> = [
  (s) => s.replace('knob = "depth"\n', ''),
  (s) => s.replace('slack = 4', 'slack = -1'),
  (s) => s.replace('slack = 4', 'slack = "four"'),
  (s) => s.replace('horizon = 8', 'horizon = 0'),
  (s) => s.replace('strictness = "strict"', 'strictness = "bogus"'),
  (s) => s.replace('split = "eval"', 'split = 3'),
  (s) => s.replace('arms = ["depth:d1", "depth:d3", "depth:d1+h3"]', 'arms = []'),
  (s) => s.replace('arms = ["depth:d1", "depth:d3", "depth:d1+h3"]', 'arms = ["depth:zz"]'),
  (s) => s.replace('generator_version = "0"', 'generator_version = "999"'),
  (s) => `${s}extra = true\n`,
  (s) => s.replace('arms = [', 'arms = [[').replace(']\n', ']]\n'),
  (s) => s.replace('horizon = 8', 'horizon = [8'),
  (s, pick) => s.replace('slack = 4', `slack = ${4 + 0.5 + pick(10)}`),
];

/** Applies 1 to 3 distinct mutations, drawn from `pick`. */
function mutate(text: string, ops: typeof SPEC_MUTATIONS, pick: (n: number) => number): { text: string; ops: number[] } {
  const k = 1 + pick(3);
  const chosen = new Set<number>();
  while (chosen.size < k) chosen.add(pick(ops.length));
  let out = text;
  for (const i of chosen) out = (ops[i] as (typeof ops)[number])(out, pick);
  return { text: out, ops: [...chosen] };
}

let dir: string;
beforeAll(async () => {
  dir = await tempDir('prove-fuzz-');
});
afterAll(async () => {
  await removeDir(dir);
});

/** Runs a sweep in `cwd` and checks: exit 2, stderr only `error: ...` lines, no stack, nothing on stdout, no store. */
async function refused(cwd: string, args: string[], what: string): Promise<string[]> {
  const io = memoryIo({ cwd });
  const code = await runCli(['--store', 'store', 'sweep', ...args, '--max-mde', '0.99', '--yes'], io);
  const lines = io.err().split('\n').filter((l) => l !== '');
  expect({ what, code, out: io.out() }).toEqual({ what, code: 2, out: '' });
  expect(lines.length, what).toBeGreaterThan(0);
  for (const l of lines) expect(l, what).toMatch(/^error: \S.*$/);
  expect(io.err(), what).not.toMatch(/\n\s+at /);
  expect((await listTree(cwd)).some((p) => p.startsWith('store')), what).toBe(false);
  return lines;
}

describe('fuzz: malformed specs', () => {
  it('300 seeded mutations of a valid spec: each exit 2, one line per problem, nothing written', async () => {
    const pick = draws('fuzz-spec');
    const cwd = join(dir, 'spec');
    await mkdir(cwd);
    let multi = 0;
    for (let i = 0; i < 300; i++) {
      const m = mutate(VALID_SPEC, SPEC_MUTATIONS, pick);
      await writeFile(join(cwd, 'spec.toml'), m.text);
      const lines = await refused(cwd, ['spec.toml', '--target', `${TARGETS}:coin`], `mutation ${i} (ops ${m.ops.join(',')}):\n${m.text}`);
      if (lines.length > 1) multi++;
    }
    expect(multi).toBeGreaterThan(50); // several problems at once are all listed, not only the first
  }, 120_000);
});

describe('fuzz: malformed registrations', () => {
  it('150 seeded mutations of the seed registration, loaded by a poisson-tasks target: each exit 2, every problem a line, nothing written', async () => {
    const pick = draws('fuzz-registration');
    const cwd = join(dir, 'reg');
    await mkdir(cwd);
    await writeFile(join(cwd, 'spec.toml'), VALID_SPEC);
    const { parseRegistration, validatePreregistration } = (await import(TASKS)) as {
      parseRegistration: (t: string) => unknown;
      validatePreregistration: (d: unknown) => unknown;
    };
    for (let i = 0; i < 150; i++) {
      const m = mutate(VALID_REGISTRATION, REGISTRATION_MUTATIONS, pick);
      await writeFile(join(cwd, `reg-${i}.toml`), m.text);
      await writeFile(
        join(cwd, `target-${i}.mjs`),
        `import { createHash } from 'node:crypto';\nimport { readFileSync } from 'node:fs';\nimport { loadRegistry } from ${JSON.stringify(ADAPTER)};\n` +
          `const path = new URL('./reg-${i}.toml', import.meta.url).pathname;\n` +
          `export const t = loadRegistry(path, { sha256: createHash('sha256').update(readFileSync(path)).digest('hex') }).targets['reference_depth_d1'];\n`,
      );
      // The problems poisson-tasks finds in it (each mutation makes it invalid on its own).
      const expected = (() => {
        try {
          validatePreregistration(parseRegistration(m.text));
        } catch (err) {
          return (err as { problems: unknown[] }).problems.length;
        }
        throw new Error(`mutation ${i} left the registration valid:\n${m.text}`);
      })();
      const lines = await refused(cwd, ['spec.toml', '--target', `target-${i}.mjs:t`], `mutation ${i} (ops ${m.ops.join(',')}):\n${m.text}`);
      expect(lines.length, `mutation ${i}: ${m.text}\n${lines.join("\n")}`).toBe(expected);
    }
  }, 120_000);
});
