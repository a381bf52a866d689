// Issue 14: unknown names are errors with "did you mean" where a close name exists, exit 2.
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../__fixtures__/helpers.js';
import { closestName, editDistance } from '../internal/did-you-mean.js';
import { runCli } from './run-cli.js';

async function cli(args: string[]) {
  const io = memoryIo({ cwd: '/' });
  return { code: await runCli(args, io), out: io.out(), err: io.err() };
}

describe('did you mean', () => {
  it('edit distance is Levenshtein\'s (kitten/sitting = 3, as in Wagner & Fischer 1974\'s example family)', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('faild', 'failed')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(closestName('faild', ['failed', 'passed'])).toBe('failed');
    expect(closestName('zzz', ['failed', 'passed'])).toBeNull();
  });

  it('a mistyped verb: exit 2 with the close verb', async () => {
    expect(await cli(['dif', '#2', '#1'])).toEqual({ code: 2, out: '', err: expect.stringMatching(/^error: unknown verb "dif" \(did you mean "diff"\?\); the verbs are /) });
    expect((await cli(['verfy'])).err).toMatch(/^error: unknown verb "verfy" \(did you mean "verify"\?\)/);
  });

  // A review (2026-12-06): the option definitions were looked up in a plain {}, so --constructor found
  // Object's function and said "--constructor needs a value", as if the verb had such an option.
  it('a flag named like an Object.prototype member is unknown, as any other', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const r = await cli(['runs', `--${name}`]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(new RegExp(`^error: unknown option --${name} for runs(?: \\(did you mean --\\w+\\?\\))?; see poisson-prove runs --help\\.\\n`));
    }
  });

  it('a mistyped flag: exit 2 with the close flag', async () => {
    const r = await cli(['diff', '#2', '#1', '--evnt', 'failed']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^error: unknown option --evnt for diff \(did you mean --event\?\); see poisson-prove diff --help\.\n/);
    // Before any verb: the help to see is the top level's (it said "see poisson-prove poisson-prove --help").
    const top = await cli(['--bogus']);
    expect(top).toEqual({ code: 2, out: '', err: expect.stringMatching(/^error: unknown option --bogus for poisson-prove; see poisson-prove --help\.\n/) });
    const m = await cli(['diff', '#2', '#1', '--method', 'exactt']);
    expect(m.code).toBe(2);
    expect(m.err).toContain('--method must be one of exact, midp, asymptotic, asymptotic-cc, got "exactt" (did you mean "exact"?).');
  });
});
