// An empty file path, target or axis name (a `--md "$OUT"` whose variable is unset) was read as given: a
// review of the CLI's error paths (2026-12-07) found `diff A B --cluster ''` stopped with "internal error:
// TypeError: diffRuns: options.cluster must be an axis name" (exit 1, "please report it"); `sweep ''` and
// `--prices ''` named the working directory ("cannot be read (EISDIR)"); `export --md ''` suggested
// writing "/export.md"; `import promptfoo ''` said ": is not a file"; and `resume RUN --target ''`
// and `extend RUN --target ''` ignored the empty target and went on with the recorded one. Each is now
// refused by the parser, naming the option (or argument) and what to pass (exit 2), before anything is read.
import { beforeAll, describe, expect, it } from 'vitest';
import { capture } from './__fixtures__/capture.js';
import { twoRunStore } from './__fixtures__/two-runs.js';
import { runCli } from './run-cli.js';

let dir: string;
let store: string;
beforeAll(async () => {
  ({ dir, store } = await twoRunStore());
});

async function prove(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const c = capture(dir);
  const code = await runCli(['--store', store, ...args], c.io);
  return { code, out: c.out(), err: c.err() };
}

describe('an empty file path, target or axis name', () => {
  it.each([
    ['diff --cluster', ['diff', '#2', '#1', '--cluster', ''], '--cluster is empty; pass --cluster AXIS, or leave --cluster out.'],
    ['report --x', ['report', '#2', '#1', '--x', ''], '--x is empty; pass --x AXIS.'],
    ['report --out', ['report', '#2', '#1', '--x', 'slack', '--out', ''], '--out is empty; pass --out FILE.svg, or leave --out out.'],
    ['export --md', ['export', '#1', '--md', ''], '--md is empty; pass --md FILE, or leave --md out.'],
    ['export --csv', ['export', '#1', '--csv', ''], '--csv is empty; pass --csv FILE, or leave --csv out.'],
    ['view --out', ['view', '#1', '--out', ''], '--out is empty; pass --out FILE.html, or leave --out out.'],
    ['sweep SPEC', ['sweep', '', '--target', 't.mjs:t', '--max-mde', '0.5', '--yes'], 'SPEC is empty; pass the file: poisson-prove sweep SPEC --target FILE:NAME --max-mde X'],
    ['sweep --prices', ['sweep', 'spec.toml', '--target', 't.mjs:t', '--max-mde', '0.5', '--yes', '--prices', ''], '--prices is empty; pass --prices FILE, or leave --prices out.'],
    ['sweep --target', ['sweep', 'spec.toml', '--target', '', '--max-mde', '0.5', '--yes'], '--target is empty; pass --target FILE:NAME.'],
    ['resume --target', ['resume', '#1', '--target', ''], '--target is empty; pass --target FILE:NAME, or leave --target out.'],
    ['extend --target', ['extend', '#1', '--replicates', '2', '--target', ''], '--target is empty; pass --target FILE:NAME, or leave --target out.'],
    ['import FILE', ['import', 'promptfoo', ''], 'FILE is empty; pass the file: poisson-prove import FORMAT FILE...'],
  ])('%s', async (_name, args, message) => {
    const r = await prove(args as string[]);
    expect(r.code).toBe(2);
    expect(r.err.startsWith(`error: ${message}`), r.err).toBe(true);
    expect(r.err).not.toMatch(/internal error|\n\s+at /);
  });
});
