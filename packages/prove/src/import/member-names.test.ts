// Names from a harness's files that are names of Object.prototype's members (a review, 2026-12-06): the
// readers kept scores, metrics and config in plain `{}` maps, so a scorer named `__proto__` lost its
// values (the assignment set the map's prototype), `--scorer toString` on an lm-eval file read Object's
// function as the metric's value, and `--axis metadata.toString` read it as every sample's axis value.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachTempDir } from '../__fixtures__/helpers.js';
import { readManifest } from '../store/manifest.js';
import { inspectRun } from '../store/inspect-run.js';
import { importRun } from './import-run.js';
import { redactSecrets } from './redact.js';

const t = eachTempDir('import-member-names-');

/** An inspect_ai .json log of 4 samples scored by `scorer` (written as JSON text: the name may be `__proto__`). */
async function inspectLog(name: string, scorer: string, pass: (id: number) => boolean): Promise<string> {
  const samples = [1, 2, 3, 4].map((id) => `{"id": ${id}, "epoch": 1, "input": "question ${id}", "target": "yes", "scores": {${JSON.stringify(scorer)}: {"value": "${pass(id) ? 'C' : 'I'}"}}, "metadata": {"level": "easy"}, "error": null, "total_time": 0.1}`);
  const file = join(t.dir, name);
  await writeFile(file, `{"version": 2, "status": "success", "eval": {"task": "popularity", "model": "mockllm/model", "scorers": [{"name": ${JSON.stringify(scorer)}}]}, "samples": [${samples.join(', ')}]}`);
  return file;
}

describe('imported names that are names of Object.prototype members', () => {
  it('an inspect scorer named __proto__ grades the samples, and its values are kept in the meta', async () => {
    const store = join(t.dir, 'store');
    const r = await importRun(store, { format: 'inspect', files: [await inspectLog('a.json', '__proto__', (id) => id > 1)], name: 'a' });
    const run = r.runs[0];
    expect(Object.entries(run?.outcomes ?? {}).sort()).toEqual([['failed', 1], ['passed', 3]]);
    const m = await readManifest(store, run?.run_id as string);
    expect(Object.entries(m.counts.outcomes).sort()).toEqual([['failed', 1], ['passed', 3]]);
    for (const [event, value] of [['passed', 'C'], ['failed', 'I']] as const) {
      const seen = await inspectRun(store, run?.run_id as string, { event });
      for (const e of seen.episodes) expect(Object.entries((e.meta as { scores: object }).scores)).toEqual([['__proto__', value]]);
    }
  });

  it('--axis metadata.NAME for such a name is refused, saying why', async () => {
    const file = await inspectLog('b.json', 'match', () => true);
    for (const name of ['toString', 'valueOf', 'hasOwnProperty', '__proto__', 'constructor']) {
      await expect(importRun(join(t.dir, `s-${name}`), { format: 'inspect', files: [file], axes: [`metadata.${name}`] })).rejects.toThrow(new RegExp(`--axis metadata\\.${name} would make an axis named ${name}`));
    }
  });

  it('lm-eval: a line naming the metric toString without its value has no outcome (NoScore), not Object\'s function graded', async () => {
    const lines = [0, 1, 2].map((i) => JSON.stringify({ doc_id: i, doc: { q: `q${i}` }, target: 0, filter: 'none', metrics: ['toString'], doc_hash: `h${i}`, acc: 1.0 }));
    const file = join(t.dir, 'samples_arc_2025-06-01T10-00-00.000000.jsonl');
    await writeFile(file, `${lines.join('\n')}\n`);
    const store = join(t.dir, 'lm');
    const r = await importRun(store, { format: 'lm-eval', files: [file], name: 'l' });
    const seen = await inspectRun(store, r.runs[0]?.run_id as string);
    expect(seen.episodes.map((e) => [e.outcome, e.error])).toEqual([0, 1, 2].map(() => [null, 'NoScore: the line has no value for metric toString']));
  });

  it('redactSecrets keeps a key named __proto__ as a key', () => {
    const config = JSON.parse('{"__proto__": {"api_key": "sk-1", "x": 1}, "constructor": 2}') as unknown;
    const out = redactSecrets(config) as object;
    expect(JSON.stringify(out)).toBe('{"__proto__":{"api_key":"***","x":1},"constructor":2}');
  });
});
