// --budget-tokens, --max-output-tokens and --refresh-cache reach a target only through its `configure`
// hook (poisson-models' targets have one). A review of the CLI's error paths (sixth session of
// 2026-12-07) found them accepted without a word for a target that has none: a sweep of a plain function
// of the user's own with --budget-tokens 100 ran every episode, and its run recorded a budget that
// nothing enforced, so an agent calling a paid API would bill past it. They are now refused before
// anything is written (sweep, resume, extend; library and CLI), naming the target and the fix.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { ProveError } from '../errors.js';
import { FIXTURES, SPEC, memoryIo, removeDir, tempDir } from '../__fixtures__/helpers.js';
import { extend } from './resume.js';
import { sweep } from './sweep.js';

const PLAIN = `${join(FIXTURES, 'targets.mjs')}:coin`;
const CONFIGURED = `${join(FIXTURES, 'counting-target.mjs')}:counting`;

let dir: string;
let store: string;
beforeEach(async () => {
  dir = await tempDir();
  store = join(dir, 'store');
});
afterEach(async () => {
  await removeDir(dir);
});

const runsIn = async (): Promise<string[]> => (await readdir(store).catch(() => [] as string[])).filter((f) => !f.startsWith('.'));

describe('run options a target without a configure hook cannot receive', () => {
  for (const [name, option] of [
    ['budgetTokens', { budgetTokens: 100 }],
    ['maxOutputTokens', { maxOutputTokens: 64 }],
    ['refreshCache', { refreshCache: true }],
  ] as const) {
    it(`sweep refuses ${name} for a plain function target, writing nothing`, async () => {
      const err = await sweep({ spec: SPEC, target: PLAIN, store, maxMde: 0.99, salt: 's', ...option }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProveError);
      expect((err as ProveError).code).toBe('E_USAGE');
      expect((err as ProveError).message).toMatch(new RegExp(`${name} \\(--[a-z-]+\\) reaches a target through its configure hook, and \\S*targets\\.mjs:coin has none`));
      expect(await runsIn()).toEqual([]);
    });
  }

  it('the CLI exits 2 with the message, nothing written; a target with configure still takes --budget-tokens', async () => {
    const io = memoryIo({ cwd: dir });
    const code = await runCli(['--store', store, 'sweep', join(FIXTURES, 'spec.toml'), '--target', PLAIN, '--max-mde', '0.99', '--salt', 's', '--yes', '--quiet', '--budget-tokens', '100'], io);
    expect(code).toBe(2);
    expect(io.err()).toMatch(/^error: budgetTokens \(--budget-tokens\) reaches a target through its configure hook, and \S*targets\.mjs:coin has none: nothing would stop it at 100 tokens/);
    expect(io.err()).not.toMatch(/\n\s+at /);
    expect(await runsIn()).toEqual([]);
    const ok = await sweep({ spec: SPEC, target: CONFIGURED, store, maxMde: 0.99, salt: 's', budgetTokens: 1000 });
    expect(ok.status).toBe('complete');
  });

  // A resume of a complete run has nothing to run and loads no target; an extension runs episodes.
  it('extend refuses them too, before anything runs', async () => {
    const run = await sweep({ spec: SPEC, target: PLAIN, store, maxMde: 0.99, salt: 's' });
    for (const [option, words] of [
      [{ budgetTokens: 100 }, 'budgetTokens (--budget-tokens) reaches a target through its configure hook'],
      [{ refreshCache: true }, 'refreshCache (--refresh-cache) reaches a target through its configure hook'],
    ] as const) {
      const x = await extend({ store, ref: run.run_id, replicates: 2, ...option }).catch((e: unknown) => e);
      expect((x as ProveError).code).toBe('E_USAGE');
      expect((x as ProveError).message).toContain(words);
    }
    const [{ readManifest }] = await Promise.all([import('../store/manifest.js')]);
    expect((await readManifest(store, run.run_id)).extensions).toEqual([]);
  });
});
