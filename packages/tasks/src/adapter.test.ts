import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRegistry, PinMismatchError } from './adapter.js';
import { generatorHash } from './generator-hash.js';
import { noisyPolicy } from './noisy-policy.js';
import { perCallNoisyPolicy } from './per-call-noisy-policy.js';
import { referencePolicy } from './reference-policy.js';
import { PreregistrationError, RegistrationHashError } from './preregistration-error.js';
import { SEED_REGISTRATION, SEED_REGISTRATION_SHA256 } from './__fixtures__/registration.js';

const dir = mkdtempSync(join(tmpdir(), 'poisson-tasks-adapter-'));
const path = join(dir, 'registration.toml');
writeFileSync(path, SEED_REGISTRATION);
const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
// The seed's first three episode seeds (salt 0123456789abcdef).
const SEEDS = [366625197, 3234607431, 1210394339];
const sha256Of = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('loadRegistry', () => {
  const registry = loadRegistry(path, { sha256: SEED_REGISTRATION_SHA256 });

  it("gives the seed's numbers: slack 4, horizon 8 and the three reference targets", () => {
    expect(registry.slack).toBe(4);
    expect(registry.horizon).toBe(8);
    expect(registry.sha256).toBe(SEED_REGISTRATION_SHA256);
    expect(registry.arms.map((a) => `${a.knob}:${a.level}:${a.controlHistory}`)).toEqual(['depth:1:null', 'depth:3:null', 'depth:1:3']);
    expect(Object.keys(registry.targets).sort()).toEqual(['reference_depth_d1', 'reference_depth_d1_h3', 'reference_depth_d3']);
    expect(Object.isFrozen(registry)).toBe(true);
    expect(Object.isFrozen(registry.targets)).toBe(true);
    // A plain object: a registry module can destructure it into named exports.
    const { reference_depth_d1, ...rest } = registry.targets;
    expect(typeof reference_depth_d1).toBe('function');
    expect(Object.keys(rest).length).toBe(2);
  });

  it('plays every episode passed, with t = 2, 4, 2 and sampled_calls = 1, 3, 1, and the meta of TASKS.md', async () => {
    const names = ['reference_depth_d1', 'reference_depth_d3', 'reference_depth_d1_h3'];
    for (const [replicate_index, seed] of SEEDS.entries()) {
      const cfg = { seed, replicate_index, slack: 4, horizon: 8, strictness: 'strict', generator_hash: generatorHash('0') };
      const results = await Promise.all(names.map((n) => registry.targets[n]!(cfg)));
      expect(results.map((r) => r.outcome)).toEqual(['passed', 'passed', 'passed']);
      expect(results.map((r) => r.t)).toEqual([2, 4, 2]);
      expect(results.map((r) => r.meta?.['sampled_calls'])).toEqual([1, 3, 1]);
      const metas = results.map((r) => r.meta as Record<string, unknown>);
      expect(new Set(metas.map((m) => m['scenario_id'])).size).toBe(1);
      expect(new Set(metas.map((m) => m['task_id'])).size).toBe(3);
      expect(metas[2]).toEqual({
        arm_id: 'depth:d1+h3',
        knob: 'depth',
        level: 1,
        control_history: 3,
        scenario_id: metas[0]!['scenario_id'],
        task_id: expect.stringMatching(/^[0-9a-f]{16}$/) as string,
        split: 'eval',
        strictness: 'strict',
        pin: { generator_version: '0', generator_hash: generatorHash('0'), registration_sha256: SEED_REGISTRATION_SHA256, package_version: PACKAGE_VERSION },
        sampled_calls: 1,
        prompt_tokens: expect.any(Number) as number,
      });
      expect(JSON.parse(JSON.stringify(metas[1]))).toEqual(metas[1]);
    }
  });

  it('refuses a cfg without the pinned axes, naming each with the table to add to the sweep spec', async () => {
    const target = registry.targets['reference_depth_d3']!;
    const hash = generatorHash('0');
    const registered = `slack = 4, horizon = 8, strictness = "strict", generator_hash = "${hash}"`;
    await expect(target({ seed: 1, replicate_index: 0 })).rejects.toThrow(
      'target reference_depth_d3 refuses this cfg: ' +
        'the sweep has no axis slack: add [axes.slack] type = "continuous" values = [4] to the sweep spec; ' +
        'the sweep has no axis horizon: add [axes.horizon] type = "continuous" values = [8] to the sweep spec; ' +
        'the sweep has no axis strictness: add [axes.strictness] type = "categorical" values = ["strict"] to the sweep spec; ' +
        `the sweep has no axis generator_hash: add [axes.generator_hash] type = "categorical" values = ["${hash}"] to the sweep spec` +
        ` — run the sweep with the registered values (${registered}) or register the new ones`,
    );
    // One missing axis among correct ones, and a mismatch beside it: both listed in one error.
    let error: unknown;
    try {
      await target({ seed: 1, replicate_index: 0, slack: 4, horizon: 9, strictness: 'strict' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PinMismatchError);
    expect((error as PinMismatchError).code).toBe('E_PIN_MISMATCH');
    expect((error as PinMismatchError).problems).toEqual([
      'horizon is 9 but the registration pins the number 8',
      `the sweep has no axis generator_hash: add [axes.generator_hash] type = "categorical" values = ["${hash}"] to the sweep spec`,
    ]);
  });

  it('check lists the pin problems of a cfg without playing (a sweep asks it before writing anything; issue 14)', () => {
    const target = registry.targets['reference_depth_d1']!;
    const pinned = { seed: 1, replicate_index: 0, slack: 4, horizon: 8, strictness: 'strict', generator_hash: generatorHash('0') };
    expect(target.check?.(pinned)).toEqual([]);
    expect(target.check?.({ ...pinned, slack: 5, horizon: 9, strictness: 'lenient', generator_hash: 'x', split: 'dev' })).toEqual([
      'slack is 5 but the registration pins the number 4',
      'horizon is 9 but the registration pins the number 8',
      'strictness is "lenient" but the registration pins the string "strict"',
      'generator_hash is "x" but the registration pins the string "' + generatorHash('0') + '"',
      'split is "dev" but the registration pins the string "eval"',
    ]);
  });

  it('refuses split and generator_version when the cfg carries them and they differ, and accepts them when equal', async () => {
    const target = registry.targets['reference_depth_d1']!;
    const pinned = { seed: 1, replicate_index: 0, slack: 4, horizon: 8, strictness: 'strict', generator_hash: generatorHash('0') };
    await expect(target({ ...pinned, split: 'dev', generator_version: '1' })).rejects.toThrow(
      'target reference_depth_d1 refuses this cfg: split is "dev" but the registration pins the string "eval"; ' +
        'generator_version is "1" but the registration pins the string "0" — run the sweep with the registered values',
    );
    await expect(target({ ...pinned, generator_version: 0 })).rejects.toThrow(
      'refuses this cfg: generator_version is 0 but the registration pins the string "0" — ',
    );
    await expect(target({ ...pinned, split: 'eval', generator_version: '0' })).resolves.toMatchObject({ outcome: 'passed', t: 2 });
    await expect(target(pinned)).resolves.toMatchObject({ outcome: 'passed', t: 2 });
  });

  it('refuses a cfg whose pinned axes disagree with the registration, listing each', async () => {
    const target = registry.targets['reference_depth_d3']!;
    const registered = `slack = 4, horizon = 8, strictness = "strict", generator_hash = "${generatorHash('0')}"`;
    await expect(target({ seed: 1, replicate_index: 0, slack: 5, horizon: 7, strictness: 'lenient', generator_hash: 'abc' })).rejects.toThrow(
      new PinMismatchError(
        'reference_depth_d3',
        [
          'slack is 5 but the registration pins the number 4',
          'horizon is 7 but the registration pins the number 8',
          'strictness is "lenient" but the registration pins the string "strict"',
          `generator_hash is "abc" but the registration pins the string "${generatorHash('0')}"`,
        ],
        registered,
      ).message,
    );
    await expect(target({ seed: 1, replicate_index: 0, slack: '4', horizon: 8, strictness: 'strict', generator_hash: generatorHash('0') })).rejects.toThrow(
      `target reference_depth_d3 refuses this cfg: slack is "4" but the registration pins the number 4 — run the sweep with the registered values (${registered}) or register the new ones`,
    );
  });

  // A review of the sixth session of 2026-12-06: the documented registry module passed
  // `new URL(...).pathname`, percent-encoded, so a folder with a space or a non-ASCII letter read as missing.
  it('takes a file URL (import.meta.url beside a registry module), in a folder with a space and a non-ASCII letter', () => {
    const spaced = join(dir, 'with space é');
    mkdirSync(spaced, { recursive: true });
    writeFileSync(join(spaced, 'registration.toml'), SEED_REGISTRATION);
    const url = new URL('./registration.toml', `file://${encodeURI(spaced)}/`);
    expect(url.pathname).toContain('%20');
    const r = loadRegistry(url, { sha256: SEED_REGISTRATION_SHA256 });
    expect([r.path, r.sha256]).toEqual([join(spaced, 'registration.toml'), SEED_REGISTRATION_SHA256]);
    // The URL's pathname, as the docs had it, names no file.
    expect(() => loadRegistry(url.pathname, { sha256: SEED_REGISTRATION_SHA256 })).toThrow(/ENOENT/);
  });

  it('refuses a file that is not UTF-8 with a PreregistrationError naming it and the fix (it was a bare TypeError)', () => {
    for (const [name, bytes, extra] of [
      ['latin1.toml', Buffer.from(`${SEED_REGISTRATION}# caf\u00e9\n`, 'latin1'), ''],
      ['utf16.toml', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SEED_REGISTRATION, 'utf16le')]), ' (it starts with a UTF-16 byte-order mark)'],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, bytes);
      const err = (() => {
        try {
          loadRegistry(file, { sha256: createHash('sha256').update(bytes).digest('hex') });
        } catch (e) {
          return e;
        }
        return null;
      })();
      expect(err).toBeInstanceOf(PreregistrationError);
      expect((err as PreregistrationError).problems).toEqual([`${file} is not UTF-8 text${extra}: save the registration as UTF-8, then register its new sha256`]);
    }
  });

  it('refuses a file changed by one byte, giving both digests', () => {
    const changed = join(dir, 'changed.toml');
    const text = SEED_REGISTRATION.replace('slack = 4', 'slack = 5'); // one byte
    expect(text.length).toBe(SEED_REGISTRATION.length);
    writeFileSync(changed, text);
    let error: unknown;
    try {
      loadRegistry(changed, { sha256: SEED_REGISTRATION_SHA256 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RegistrationHashError);
    const e = error as RegistrationHashError;
    expect(e.expected).toBe(SEED_REGISTRATION_SHA256);
    expect(e.actual).toBe(sha256Of(text));
    expect(e.message).toBe(
      `the registration ${changed} has sha256 ${e.actual}, but it was loaded under sha256 ${SEED_REGISTRATION_SHA256}: the file changed ` +
        'after it was registered; restore the registered file, or register the new one and load it under its new digest',
    );
  });

  it('refuses a malformed digest and an invalid registration', () => {
    expect(() => loadRegistry(path, { sha256: 'abc' })).toThrow('options.sha256 must be the registration\'s sha256 as 64 hex digits, got "abc"');
    const bad = join(dir, 'bad.toml');
    const text = SEED_REGISTRATION.replace(', "depth:d1+h3"', '');
    writeFileSync(bad, text);
    const digest = sha256Of(text);
    expect(() => loadRegistry(bad, { sha256: digest })).toThrow(PreregistrationError);
    expect(() => loadRegistry(bad, { sha256: digest })).toThrow('depth:d3 needs its control depth:d1+h3');
  });

  it('policies adds targets to the reference ones, named after each policy (docs/tasks.md)', async () => {
    const r = loadRegistry(path, { sha256: SEED_REGISTRATION_SHA256, policies: [noisyPolicy({ p: 1, name: 'noisy' }), perCallNoisyPolicy({ e: 1 })] });
    expect(Object.keys(r.targets).sort()).toEqual([
      'noisy_depth_d1',
      'noisy_depth_d1_h3',
      'noisy_depth_d3',
      'per_call_depth_d1',
      'per_call_depth_d1_h3',
      'per_call_depth_d3',
      'reference_depth_d1',
      'reference_depth_d1_h3',
      'reference_depth_d3',
    ]);
    const cfg = { seed: 1, replicate_index: 0, slack: 4, horizon: 8, strictness: 'strict', generator_hash: generatorHash('0') };
    await expect(r.targets['noisy_depth_d3']!(cfg)).resolves.toMatchObject({ outcome: 'failed', t: 4 });
    await expect(r.targets['per_call_depth_d1_h3']!(cfg)).resolves.toMatchObject({ outcome: 'failed', t: 2 });
    await expect(r.targets['reference_depth_d3']!(cfg)).resolves.toMatchObject({ outcome: 'passed', t: 4 });
  });

  it('builds the reference once when it is listed, and refuses two policies of one name', () => {
    const r = loadRegistry(path, { sha256: SEED_REGISTRATION_SHA256, policies: [referencePolicy] });
    expect(Object.keys(r.targets).sort()).toEqual(['reference_depth_d1', 'reference_depth_d1_h3', 'reference_depth_d3']);
    expect(() => loadRegistry(path, { sha256: SEED_REGISTRATION_SHA256, policies: [noisyPolicy({ p: 0.5, name: 'reference' })] })).toThrow(
      "two policies make the target name reference_depth_d1: give the policies distinct names (the reference policy's targets are always built, as reference_*)",
    );
  });

  it('exports the policies where poisson-tasks does, so a registry module needs one import', async () => {
    const adapter = await import('./adapter.js');
    const main = await import('./index.js');
    for (const name of ['referencePolicy', 'noisyPolicy', 'perCallNoisyPolicy'] as const) {
      expect(adapter[name], name).toBeDefined();
      expect(adapter[name], name).toBe(main[name]);
    }
  });
});

describe('the adapter stays a plain-function boundary', () => {
  it('no source file of this package imports poisson-prove', async () => {
    const { readdirSync } = await import('node:fs');
    const files = readdirSync(new URL('.', import.meta.url), { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
    );
    expect(files).toContain('adapter.ts');
    for (const f of files) {
      const text = readFileSync(new URL(f, import.meta.url), 'utf8');
      expect(text, f).not.toMatch(/from\s+['"]poisson-prove/);
      expect(text, f).not.toMatch(/import\(\s*['"]poisson-prove/);
    }
  });
});
