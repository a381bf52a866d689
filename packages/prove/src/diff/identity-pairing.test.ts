import { describe, expect, it } from 'vitest';
import { identitySeed } from '../import/identity.js';
import { diffEpisodes } from './diff-episodes.js';
import { alignByIdentity } from './pairing.js';
import type { DiffEpisode, DiffManifest, DiffRun } from './types.js';

// Two imported runs (docs/import.md, "Pairing"): rows pair on the seed (a hash of the sample's identity)
// and input_hash, never on their position. Written before alignByIdentity existed: the old diff paired
// replicate_index 0 with 0, found different seeds and fell back to the unpaired test.

function manifest(name: string): DiffManifest {
  return { run_id: name, name, salt: 'import:inspect', max_mde: 0.1, axes: { task: { type: 'categorical', values: ['t'] } }, conditions: ['task t'], import: { pairing: 'identity' } };
}

type S = { id: number; outcome: string | null; input?: string };

function run(name: string, samples: readonly S[]): DiffRun {
  const rows: DiffEpisode[] = samples.map((s, r) => ({
    condition: 'task t',
    task: 't',
    replicate_index: r,
    seed: BigInt(identitySeed('inspect', `id ${s.id} epoch 1`)),
    outcome: s.outcome,
    t: 0,
    score: null,
    identity: `id ${s.id} epoch 1`,
    input_hash: s.input ?? `h${s.id}`,
  }));
  return { manifest: manifest(name), rows };
}

describe('pairing two imported runs by identity', () => {
  // before holds ids 1..12 in order; after holds them shuffled, without id 12, with id 13, and with a
  // different input for ids 4 and 9.
  const before = run('A', Array.from({ length: 12 }, (_, i) => ({ id: i + 1, outcome: i < 6 ? 'failed' : 'passed' })));
  const afterSamples: S[] = [13, 11, 9, 7, 5, 3, 1, 2, 4, 6, 8, 10].map((id) => ({
    id,
    outcome: id <= 3 || id === 8 ? 'failed' : 'passed',
    ...(id === 4 || id === 9 ? { input: `changed${id}` } : {}),
  }));
  const after = run('B', afterSamples);

  it('pairs the matching samples, whatever their order, and names those whose input differs', () => {
    const r = diffEpisodes(before, after, { events: ['failed'], full: true });
    expect(r.method.paired).toBe(true);
    // Pairs: ids 1..11 less 4 and 9 = 9 pairs. failed before: 1,2,3,5,6; after: 1,2,3,8.
    // both: 1,2,3; fall (failed before only): 5,6; rise (after only): 8; neither: 7,10,11.
    expect(r.rows[0]?.counts).toEqual({ both: 3, rise: 1, fall: 2, neither: 3, n: 9 });
    expect(r.identity?.matched).toBe(9);
    expect(r.identity?.input_mismatches.map((m) => m.sample)).toEqual(['id 4 epoch 1', 'id 9 epoch 1']);
    expect(r.identity?.input_mismatches[0]).toMatchObject({ condition: 'task t', before_hash: 'h4', after_hash: 'changed4' });
    expect(r.identity).toMatchObject({ only_before: 1, only_after: 1 });
    expect(r.warnings.join('\n')).toContain('2 samples are in both runs with a different input (input_hash), so not paired: id 4 epoch 1 (task t), id 9 epoch 1 (task t)');
    expect(r.warnings.join('\n')).toContain('2 samples are in one run only (1 only before, 1 only after)');
    const cov = r.coverage?.conditions[0];
    expect(cov).toMatchObject({ pairs: 9, seed_mismatches: 0, unmatched_before: 3, unmatched_after: 3 });
  });

  it('leaves runs that are not both imports as they are', () => {
    const plain = { manifest: { ...manifest('C'), import: undefined }, rows: before.rows };
    const r = alignByIdentity(plain, after);
    expect(r.identity).toBeNull();
    expect(r.before).toBe(plain);
  });

  it('aligns once: runs already aligned are returned as they are', () => {
    const once = alignByIdentity(before, after);
    const twice = alignByIdentity(once.before, once.after);
    expect(twice.identity).toBeNull();
    expect(twice.before.rows).toBe(once.before.rows);
  });

  it('refuses a run holding one identity twice in a condition', () => {
    const dup = run('D', [{ id: 1, outcome: 'passed' }, { id: 1, outcome: 'failed' }]);
    expect(() => diffEpisodes(dup, after, { events: ['failed'] })).toThrow(/holds sample id 1 epoch 1 twice in task t/);
  });
});

// A review (third session of 2026-12-06): an inspect import diffed against a promptfoo import of the same
// task label read "the runs were swept with different salts (import:inspect before, import:promptfoo
// after)", with no word that two harnesses' samples never pair and may not be the same samples.
describe('imports of different harnesses, or an import beside a sweep', () => {
  const samples = Array.from({ length: 12 }, (_, i) => ({ id: i + 1, outcome: i < 6 ? 'failed' : 'passed' }));
  it('say why none of their samples pair, and that they may not be the same samples', () => {
    const a = run('A', samples);
    const b = run('B', samples);
    const pf = { ...b, manifest: { ...b.manifest, salt: 'import:promptfoo' } };
    const r = diffEpisodes(a, pf, { events: ['failed'] });
    expect(r.method.paired).toBe(false);
    expect(r.method.description).toContain('the runs were imported from different harnesses (inspect before, promptfoo after), which identify their samples differently, so none pair');
    expect(r.method.description).toContain('may not even hold the same samples');
    const swept = { ...b, manifest: { ...b.manifest, salt: 'demo' } };
    expect(diffEpisodes(a, swept, { events: ['failed'] }).method.description).toContain('one run was imported (from inspect) and the other swept here (salt demo)');
  });
});

// A review (evening of 2026-12-06): inspect's N (no answer) read as the outcome no_answer until that
// evening and as failed since; one log imported before and after read "significant change" (failed
// 0 -> 10, no_answer 10 -> 0) with nothing said. The diff now says so when one inspect import holds
// no_answer and the other none.
describe('an inspect import made when N read as no_answer, against one made since', () => {
  const harness = (r: DiffRun, h: string): DiffRun => ({ ...r, manifest: { ...r.manifest, import: { pairing: 'identity', harness: h } } });
  const old = run('old', Array.from({ length: 40 }, (_, i) => ({ id: i + 1, outcome: i < 10 ? 'no_answer' : 'passed' })));
  const now = run('new', Array.from({ length: 40 }, (_, i) => ({ id: i + 1, outcome: i < 10 ? 'failed' : 'passed' })));
  const said = "before holds the outcome no_answer, which imports made before the evening of 2026-12-06 gave inspect's N (no answer), and after none: if after was imported since (N read as failed, as inspect's accuracy counts it), the same answers read as a change of both; import before's log again to compare them";
  it('is warned of, naming the run to import again', () => {
    expect(diffEpisodes(harness(old, 'inspect'), harness(now, 'inspect')).warnings).toContain(said);
    expect(diffEpisodes(harness(now, 'inspect'), harness(old, 'inspect')).warnings).toContain(said.replace(/^before/, 'after').replace('and after none: if after', 'and before none: if before').replace("import before's", "import after's"));
  });
  it('is not warned of for two imports alike, or for another harness', () => {
    expect(diffEpisodes(harness(now, 'inspect'), harness(now, 'inspect')).warnings.join()).not.toContain('no_answer');
    expect(diffEpisodes(harness(old, 'inspect'), harness(old, 'inspect')).warnings.join()).not.toContain('no_answer');
    expect(diffEpisodes(harness(old, 'promptfoo'), harness(now, 'promptfoo')).warnings.join()).not.toContain('no_answer');
  });
});
