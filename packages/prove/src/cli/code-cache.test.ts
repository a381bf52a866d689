import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cacheFileName, compileCliScript, scriptId, type CliScriptBindings } from './code-cache.js';

const FILE = '/pkg/dist/bundle/cli-script.js';

/**
 * A script of the CLI script's shape, with the build's last line: it reads its free names and reports them
 * through `record`. `tag` makes each source new to V8 (whose in-process compilation cache would otherwise
 * answer a second compile of the same text without reading the cache it is given).
 */
function source(tag: string): string {
  const body = `#!/usr/bin/env node
const seen = [__ext('a'), __import_meta_url, __import_meta_resolve('./x.js'), await __load('y')];
require('record')(seen); // ${tag}
`;
  return `${body}// cli-script ${createHash('sha256').update(body).digest('hex')}\n`;
}

function bindings(into: unknown[][]): CliScriptBindings {
  return {
    require: (s) => (s === 'record' ? (seen: unknown[]) => into.push(seen) : `required ${s}`),
    load: (s) => Promise.resolve(`loaded ${s}`),
    url: 'file:///pkg/dist/bundle/cli-script.js',
    resolve: (s) => `resolved ${s}`,
  };
}

const SEEN = ['required a', 'file:///pkg/dist/bundle/cli-script.js', 'resolved ./x.js', 'loaded y'];

describe('compileCliScript', () => {
  it('binds the free names (after the shebang line), and V8 takes back the cache it wrote', async () => {
    const text = source('round trip');
    const first = compileCliScript(FILE, text, undefined);
    expect(first.rejected).toBeNull();
    const runs: unknown[][] = [];
    await first.run(bindings(runs));
    expect(runs).toEqual([SEEN]);
    const cache = first.createCache();
    expect(cache.toString('latin1', 0, 64)).toBe(scriptId(text));
    expect(cache.toString('latin1', 64, 128)).toBe(createHash('sha256').update(cache.subarray(128)).digest('hex'));
    const again = compileCliScript(`/again${FILE}`, text, cache); // another name: V8 reads the cache (see below)
    expect(again.rejected).toBe(false);
    await again.run(bindings(runs));
    expect(runs).toEqual([SEEN, SEEN]);
  });

  it('ignores a cache of another script, a damaged cache and a file that is no cache: the script is compiled from its source and runs', async () => {
    const made = compileCliScript(FILE, source('made'), undefined).createCache();
    // V8's bytes damaged past V8's own header, which is all V8 checks: given to V8, they abort the process.
    const damaged = Buffer.from(made);
    for (let i = 128 + 64; i < damaged.length; i += 7) damaged[i] = (damaged[i] ?? 0) ^ 0xff;
    const truncated = made.subarray(0, made.length - 10);
    const cases: [string, string, Buffer][] = [
      // Same length as the text the cache was made for: V8 alone would take it (it checks the length).
      ['another script', source('mde!'), made],
      ['damaged', source('made'), damaged],
      ['truncated', source('made'), truncated],
      ['not a cache', source('none'), Buffer.from('not a cache')],
    ];
    for (const [what, text, cache] of cases) {
      // Another file name: V8's in-process cache of the text compiled above is keyed by it, so V8 reads the cache given.
      const script = compileCliScript(`/other${FILE}`, text, cache);
      expect(script.rejected, what).toBe(true);
      const runs: unknown[][] = [];
      await script.run(bindings(runs));
      expect(runs, what).toEqual([SEEN]);
    }
  });
});

describe('compileCliScript and an edited script', () => {
  it('ignores the cache of a script edited without its last line (same length, the recorded id kept): the edit runs', async () => {
    // The build's script, its cache, then one character of its body changed and the id line left as it was.
    const text = source('edit');
    const cache = compileCliScript(FILE, text, undefined).createCache();
    const swapped = text.replace("__import_meta_resolve('./x.js')", "__import_meta_resolve('./z.js')");
    expect(swapped.length).toBe(text.length);
    expect(scriptId(swapped)).toBe(scriptId(text));
    const script = compileCliScript(`/edited${FILE}`, swapped, cache);
    expect(script.rejected).toBe(true);
    const runs: unknown[][] = [];
    await script.run(bindings(runs));
    expect(runs).toEqual([['required a', 'file:///pkg/dist/bundle/cli-script.js', 'resolved ./z.js', 'loaded y']]);
  });
});

describe('scriptId', () => {
  it("reads the build's last line, and nothing from a script without one", () => {
    const text = source('id');
    expect(scriptId(text)).toBe(createHash('sha256').update(text.slice(0, text.lastIndexOf('// cli-script '))).digest('hex'));
    expect(scriptId('console.log(1);\n')).toBeNull();
  });
});

describe('cacheFileName', () => {
  it('names the V8 version and the architecture', () => {
    expect(cacheFileName('11.3.244.8-node.38', 'x64')).toBe('cli-script.11.3.244.8-node.38-x64.cache');
    expect(cacheFileName('12.4.254.21-node.33', 'arm64')).toBe('cli-script.12.4.254.21-node.33-arm64.cache');
  });
});
