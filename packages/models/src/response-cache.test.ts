import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheKey, ResponseCache, type CacheEntry } from './response-cache.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'poisson-models-cache-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const identity = { provider: 'local', model: 'm', replicateIndex: 0, endpoint: 'http://127.0.0.1:1/v1' } as const;
const key = cacheKey({ ...identity, request: { messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 } });
const entry = (): CacheEntry => ({
  key,
  provider: 'local',
  model: 'm',
  replicate_index: 0,
  endpoint: 'http://127.0.0.1:1/v1',
  created: '2026-12-06T00:00:00.000Z',
  completion: { model: 'm', content: 'an answer', tool_calls: [], finish_reason: 'stop', usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 } },
});

/** Writes a file under the key's path as a damaged writer (or a hand edit) would leave it. */
async function writeRaw(cache: ResponseCache, text: string): Promise<void> {
  await mkdir(dirname(cache.pathOf(key)), { recursive: true });
  await writeFile(cache.pathOf(key), text, 'utf8');
}

// The review of 2026-12-06: get() checked only `entry.key`, so a parseable entry that lost its answer was
// served as an empty answer (graded 'failed', no error), one without usage threw a TypeError in the
// session, and one whose content was 42 threw in the grader; resume --retry-errors re-read the same entry.
describe('ResponseCache reads check the entry', () => {
  it('a sound entry is a hit; a missing file is a miss', async () => {
    const cache = new ResponseCache(dir);
    expect(await cache.read(key, identity)).toEqual({ status: 'miss' });
    await cache.put(entry());
    expect(await cache.read(key, identity)).toEqual({ status: 'hit', entry: entry() });
    expect(await cache.get(key)).toEqual(entry());
  });

  // A review (second session of 2026-12-07): a cache directory with a file where a directory of its path
  // should be (ENOTDIR) read every key as a damaged entry, and a sweep's summary said "damaged: 60 cache
  // entries could not be served ... and were called again" of entries that never existed. No entry can be
  // there: a miss (writing it fails, and is counted as a failed cache write).
  it('a key whose path runs through a file is a miss, not a damaged entry', async () => {
    const cache = new ResponseCache(join(dir, 'blocked'));
    await mkdir(join(dir, 'blocked'), { recursive: true });
    const first = cache.pathOf(key).slice(join(dir, 'blocked').length + 1).split('/')[0] as string;
    await writeFile(join(dir, 'blocked', first), 'x');
    expect(await cache.read(key, identity)).toEqual({ status: 'miss' });
  });

  const damages: ReadonlyArray<readonly [string, (e: Record<string, unknown>) => unknown, RegExp]> = [
    ['no content', (e) => delete (e['completion'] as Record<string, unknown>)['content'], /completion\.content/],
    ['content 42', (e) => ((e['completion'] as Record<string, unknown>)['content'] = 42), /completion\.content/],
    ['no usage', (e) => delete (e['completion'] as Record<string, unknown>)['usage'], /completion\.usage/],
    ['negative tokens', (e) => (((e['completion'] as Record<string, unknown>)['usage'] as Record<string, unknown>)['total_tokens'] = -5), /total_tokens/],
    ['an emptied completion', (e) => (e['completion'] = {}), /completion\./],
    ['no completion', (e) => delete e['completion'], /completion/],
    ['a tool call without arguments', (e) => ((e['completion'] as Record<string, unknown>)['tool_calls'] = [{ id: 'c', type: 'function', function: { name: 'f' } }]), /tool_calls/],
    ['no created time', (e) => delete e['created'], /created/],
    ['another model', (e) => (e['model'] = 'other-model'), /model "other-model"/],
    ['another provider', (e) => (e['provider'] = 'poe'), /provider "poe"/],
    ['another replicate', (e) => (e['replicate_index'] = 99), /replicate_index 99/],
    ['another endpoint', (e) => (e['endpoint'] = 'http://127.0.0.1:2/v1'), /endpoint/],
    ['another key', (e) => (e['key'] = 'f'.repeat(64)), /key/],
  ];
  for (const [name, damage, problem] of damages) {
    it(`an entry with ${name} is damaged: read says why, get and has treat it as a miss`, async () => {
      const cache = new ResponseCache(dir);
      const e = JSON.parse(JSON.stringify(entry())) as Record<string, unknown>;
      damage(e);
      await writeRaw(cache, JSON.stringify(e));
      const r = await cache.read(key, identity);
      expect(r.status).toBe('damaged');
      expect(r.status === 'damaged' ? r.problem : '').toMatch(problem);
      expect(r.status === 'damaged' ? r.problem : '').not.toContain('an answer'); // never the answer text
      expect(await cache.get(key, identity)).toBeUndefined();
      expect(await cache.has(key, identity)).toBe(false);
    });
  }

  it('a truncated file and a file that is not an object are damaged, not silent misses', async () => {
    const cache = new ResponseCache(dir);
    await writeRaw(cache, JSON.stringify(entry()).slice(0, 100));
    expect(await cache.read(key, identity)).toMatchObject({ status: 'damaged', problem: expect.stringMatching(/not JSON/) });
    await writeRaw(cache, '[]');
    expect(await cache.read(key, identity)).toMatchObject({ status: 'damaged', problem: expect.stringMatching(/not an object/) });
  });

  it('without an expected identity, only the shape and the key are checked; an entry of a named preset records no endpoint', async () => {
    const cache = new ResponseCache(dir);
    const { endpoint: _e, ...noEndpoint } = entry();
    await writeRaw(cache, JSON.stringify({ ...noEndpoint, model: 'other' }));
    expect((await cache.read(key)).status).toBe('hit');
    expect((await cache.read(key, { ...identity, endpoint: null })).status).toBe('damaged'); // model other
    await writeRaw(cache, JSON.stringify(noEndpoint));
    expect((await cache.read(key, { ...identity, endpoint: null })).status).toBe('hit');
    expect(JSON.parse(await readFile(cache.pathOf(key), 'utf8'))).toEqual(noEndpoint);
  });
});

// The review of 2026-12-06 (t10-same-prompt-two-rubrics.sh): put overwrote, so of two identical requests
// answered at once the second answer replaced the first, and the first's rows pointed at an answer the
// cache no longer held.
describe('ResponseCache.put keeps the first answer', () => {
  const other = (): CacheEntry => ({ ...entry(), created: '2026-12-06T00:00:01.000Z', completion: { ...entry().completion, content: 'another answer' } });

  it('a put does not replace a sound entry another call wrote: it returns the stored entry', async () => {
    const cache = new ResponseCache(dir);
    expect(await cache.put(entry())).toEqual(entry());
    expect(await cache.put(other())).toEqual(entry());
    expect(await cache.get(key)).toEqual(entry());
    // The temporary files are gone.
    expect((await readdir(dirname(cache.pathOf(key)))).sort()).toEqual([`${key}.json`]);
  });

  it('replace(stored) decides (a refresh replaces what is older than it); a damaged entry is always replaced', async () => {
    const cache = new ResponseCache(dir);
    await cache.put(entry());
    expect(await cache.put(other(), { replace: (stored) => stored.created < other().created })).toEqual(other());
    expect(await cache.get(key)).toEqual(other());
    await writeRaw(cache, JSON.stringify(entry()).slice(0, 50));
    expect(await cache.put(entry())).toEqual(entry());
    expect(await cache.get(key)).toEqual(entry());
    expect((await readdir(dirname(cache.pathOf(key)))).sort()).toEqual([`${key}.json`]);
  });
});
