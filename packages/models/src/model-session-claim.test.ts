// Identical calls in two sessions that share one cache directory (two worker threads of a run, two
// bullmq workers on one machine, a sweep beside a resume): each session sent its own call and each was
// paid (the third session of 2026-12-06 left this in its note; docs/models.md said "across processes each
// session sends its own call"). A session now claims a key in the cache directory before it calls, and a
// session that finds the key claimed waits for the answer the holder stores (a cache hit, nothing billed).
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockChatServer, type MockChatServer, type Reply } from './__fixtures__/mock-chat-server.js';
import { createModelSession, type ModelSessionEvent } from './model-session.js';
import { ResponseCache, type CacheClaim } from './response-cache.js';
import { TokenBudget } from './token-budget.js';

let server: MockChatServer | undefined;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'poisson-models-claim-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

const request = (content: string) => ({ messages: [{ role: 'user' as const, content }], max_tokens: 16, seed: 11 });

/** A server answering 'fresh', a session on the store's cache, the key of request q, and the path of its claim (its folder made). */
async function claimedKey() {
  const srv = await startMockChatServer(() => ({ kind: 'text', content: 'fresh' }));
  server = srv; // closed after each test
  const cache = ResponseCache.forStore(dir);
  const s = createModelSession({ env: {}, baseURLs: { local: srv.url }, cache });
  const key = s.keyOf('local:m', request('q'), 0);
  const claim = cache.claimPathOf(key);
  await mkdir(join(claim, '..'), { recursive: true });
  return { srv, cache, s, key, claim };
}

/** A promise of the first event of `type` a session reports, and the listener that resolves it. */
function eventOf(type: ModelSessionEvent['type']): { seen: Promise<ModelSessionEvent>; onEvent: (e: ModelSessionEvent) => void } {
  let resolve: (e: ModelSessionEvent) => void = () => undefined;
  const seen = new Promise<ModelSessionEvent>((r) => (resolve = r));
  return { seen, onEvent: (e) => (e.type === type ? resolve(e) : undefined) };
}

describe('one call per key across sessions that share a cache directory', () => {
  it('the second session waits for the first one\'s answer: one request, one bill, the second a cache hit', async () => {
    const release: Array<(r: Reply) => void> = [];
    server = await startMockChatServer(() => new Promise<Reply>((resolve) => release.push(resolve)));
    const budgetA = new TokenBudget(10_000);
    const budgetB = new TokenBudget(10_000);
    const a = createModelSession({ env: {}, baseURLs: { local: server.url }, cache: ResponseCache.forStore(dir), budget: budgetA });
    const waiting = eventOf('claim_wait');
    const b = createModelSession({ env: {}, baseURLs: { local: server.url }, cache: ResponseCache.forStore(dir), budget: budgetB, onEvent: waiting.onEvent });
    const first = a.chat('local:m', request('same'), { replicateIndex: 0 });
    await server.waitForRequests(1);
    const second = b.chat('local:m', request('same'), { replicateIndex: 0 });
    expect(await waiting.seen).toMatchObject({ type: 'claim_wait', model: 'local:m' });
    release.shift()?.({ kind: 'text', content: 'the one answer', completionTokens: 7 });
    expect(await first).toMatchObject({ cached: false, completion: { content: 'the one answer' } });
    expect(await second).toMatchObject({ cached: true, completion: { content: 'the one answer' } });
    expect(server.requests).toHaveLength(1);
    expect(a.usage()).toMatchObject({ http_calls: 1, cache_hits: 0 });
    expect(b.usage()).toMatchObject({ http_calls: 0, cache_hits: 1, billed_tokens: 0 });
    expect(budgetB.used).toBe(0);
    // Nothing of the claim is left in the cache directory.
    const shard = (await readdir(join(dir, '.cache', 'chat'))).filter((f) => !f.startsWith('.'));
    const files = (await Promise.all(shard.map((s) => readdir(join(dir, '.cache', 'chat', s))))).flat();
    expect(files.filter((f) => !f.endsWith('.json'))).toEqual([]);
  });

  it('when the holder\'s call fails, the waiting session makes its own call', async () => {
    const release: Array<(r: Reply) => void> = [];
    server = await startMockChatServer(() => new Promise<Reply>((resolve) => release.push(resolve)));
    const a = createModelSession({ env: {}, baseURLs: { local: server.url }, cache: ResponseCache.forStore(dir), maxAttempts: 1 });
    const waiting = eventOf('claim_wait');
    const b = createModelSession({ env: {}, baseURLs: { local: server.url }, cache: ResponseCache.forStore(dir), onEvent: waiting.onEvent });
    const first = a.chat('local:m', request('q'), { replicateIndex: 0 });
    await server.waitForRequests(1);
    const second = b.chat('local:m', request('q'), { replicateIndex: 0 });
    await waiting.seen;
    release.shift()?.({ kind: 'status', status: 400 });
    await expect(first).rejects.toThrow(/HTTP 400/);
    await server.waitForRequests(2);
    release.shift()?.({ kind: 'text', content: 'ok' });
    expect(await second).toMatchObject({ cached: false, completion: { content: 'ok' } });
  });

  it('a waiting session can be aborted by its own signal (an episode\'s timeout)', async () => {
    const release: Array<(r: Reply) => void> = [];
    server = await startMockChatServer(() => new Promise<Reply>((resolve) => release.push(resolve)));
    const a = createModelSession({ env: {}, baseURLs: { local: server.url }, cache: ResponseCache.forStore(dir) });
    const waiting = eventOf('claim_wait');
    const b = createModelSession({ env: {}, baseURLs: { local: server.url }, cache: ResponseCache.forStore(dir), onEvent: waiting.onEvent });
    const first = a.chat('local:m', request('q'), { replicateIndex: 0 });
    await server.waitForRequests(1);
    const stop = new AbortController();
    const second = b.chat('local:m', request('q'), { replicateIndex: 0, signal: stop.signal });
    await waiting.seen;
    stop.abort(new Error('episode timed out'));
    await expect(second).rejects.toThrow(/episode timed out/);
    release.shift()?.({ kind: 'text', content: 'ok' });
    await first;
    expect(server.requests).toHaveLength(1);
  });

  it('a claim its holder no longer keeps fresh (a process killed mid-call) is taken over, not waited on', async () => {
    const { srv, cache, s, key, claim } = await claimedKey();
    // The claim a SIGKILLed holder left behind: its heartbeat stopped a minute ago.
    await writeFile(claim, '{"id":"killed"}\n');
    const past = new Date(Date.now() - 60_000);
    await utimes(claim, past, past);
    expect(await s.chat('local:m', request('q'), { replicateIndex: 0 })).toMatchObject({ cached: false, completion: { content: 'fresh' } });
    expect(srv.requests).toHaveLength(1);
  });

  // A review (evening of 2026-12-06): a run resumed after a kill waited up to 10 s on each claim its killed
  // process left (their mtime fresh), and a --timeout under that recorded the wait as the model's timeout,
  // with no request sent. A claim naming this machine, this pid namespace and a pid that has ended is stale
  // at once; one of a live process, or of another machine, is waited on as before.
  it('a fresh claim of a process of this machine that has ended is taken over at once; one of a live process or another machine is not', async () => {
    const { srv, cache, s, key, claim } = await claimedKey();
    const { spawnSync } = await import('node:child_process');
    const { hostname } = await import('node:os');
    const { readlinkSync } = await import('node:fs');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    const { readFileSync } = await import('node:fs');
    const proc = (read: () => string) => {
      try {
        return read();
      } catch {
        return null;
      }
    };
    const ns = proc(() => readlinkSync('/proc/self/ns/pid'));
    const boot = proc(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
    const owner = (pid: number, host = hostname(), bootId = boot) => `${JSON.stringify({ id: 'x', at: new Date().toISOString(), host, boot_id: bootId, pid_ns: ns, pid })}\n`;
    // A live process (the test's parent, which runs) and another machine: held.
    await writeFile(claim, owner(process.ppid));
    expect(await cache.claimState(key)).toBe('held');
    await writeFile(claim, owner(dead, 'another-machine'));
    expect(await cache.claimState(key)).toBe('held');
    // Another machine of the same host name (a clone; the root pid namespace's inode is every kernel's): its boot id differs.
    await writeFile(claim, owner(dead, hostname(), '00000000-0000-0000-0000-000000000000'));
    expect(await cache.claimState(key)).toBe('held');
    await writeFile(claim, '{"id":"an older claim, without its holder"}\n');
    expect(await cache.claimState(key)).toBe('held');
    // This machine's ended process: stale now, and the call goes on without waiting.
    await writeFile(claim, owner(dead));
    expect(await cache.claimState(key)).toBe(ns === null || boot === null ? 'held' : 'stale');
    if (ns === null || boot === null) return; // no /proc to read: nothing is known of the holder, as before
    const waiting = eventOf('claim_wait');
    const t = createModelSession({ env: {}, baseURLs: { local: srv.url }, cache, onEvent: waiting.onEvent });
    let waited = false;
    void waiting.seen.then(() => (waited = true));
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(new Error('waited on a dead claim')), 8_000);
    expect(await t.chat('local:m', request('q'), { replicateIndex: 0, signal: stop.signal })).toMatchObject({ cached: false, completion: { content: 'fresh' } });
    clearTimeout(timer);
    expect(waited).toBe(false);
    expect(srv.requests).toHaveLength(1);
  });

  // A review (evening of 2026-12-06): a damaged entry was counted by every session that read it, before
  // the claim: two sweeps at once each said "1 cache entry could not be served ... and was called again"
  // after one request between them. It is counted by the session that calls again.
  it('a damaged entry is counted once, by the session that calls again, not by one that waits for its answer', async () => {
    const release: Array<(r: Reply) => void> = [];
    server = await startMockChatServer(() => new Promise<Reply>((resolve) => release.push(resolve)));
    const cache = ResponseCache.forStore(dir);
    const events: ModelSessionEvent[] = [];
    const a = createModelSession({ env: {}, baseURLs: { local: server.url }, cache, onEvent: (e) => events.push(e) });
    const key = a.keyOf('local:m', request('q'), 0);
    await mkdir(join(cache.pathOf(key), '..'), { recursive: true });
    await writeFile(cache.pathOf(key), '');
    const waiting = eventOf('claim_wait');
    const b = createModelSession({ env: {}, baseURLs: { local: server.url }, cache, onEvent: (e) => (events.push(e), waiting.onEvent(e)) });
    const first = a.chat('local:m', request('q'), { replicateIndex: 0 });
    await server.waitForRequests(1);
    const second = b.chat('local:m', request('q'), { replicateIndex: 0 });
    await waiting.seen;
    release.shift()?.({ kind: 'text', content: 'ok' });
    expect((await first).cached).toBe(false);
    expect((await second).cached).toBe(true);
    expect(server.requests).toHaveLength(1);
    expect(events.filter((e) => e.type === 'cache_damaged')).toHaveLength(1);
    expect([a.usage().damaged_cache_entries, b.usage().damaged_cache_entries]).toEqual([1, 0]);
  });

  // A review of this change found the next three.
  it('a session whose cache read missed just before the holder stored and released reads the stored answer, not a second call', async () => {
    /** A cache whose claim waits for the test: the window between chat's cache read and its claim, held open. */
    class GatedClaimCache extends ResponseCache {
      reached: () => void = () => undefined;
      readonly atClaim = new Promise<void>((r) => (this.reached = r));
      open: () => void = () => undefined;
      readonly gate = new Promise<void>((r) => (this.open = r));
      override async claim(key: string): Promise<CacheClaim> {
        this.reached();
        await this.gate;
        return super.claim(key);
      }
    }
    const release: Array<(r: Reply) => void> = [];
    server = await startMockChatServer(() => new Promise<Reply>((resolve) => release.push(resolve)));
    const holder = createModelSession({ env: {}, baseURLs: { local: server.url }, cache: ResponseCache.forStore(dir) });
    const gated = new GatedClaimCache(join(dir, '.cache', 'chat'));
    const late = createModelSession({ env: {}, baseURLs: { local: server.url }, cache: gated });
    const first = holder.chat('local:m', request('same'), { replicateIndex: 0 });
    await server.waitForRequests(1);
    const second = late.chat('local:m', request('same'), { replicateIndex: 0 });
    await gated.atClaim; // its cache read missed: the holder is still in flight
    release.shift()?.({ kind: 'text', content: 'the one answer' });
    await first; // stored, and the claim released
    gated.open();
    expect(await second).toMatchObject({ cached: true, completion: { content: 'the one answer' } });
    expect(server.requests).toHaveLength(1);
  });

  it('a stale claim that cannot be removed (a read-only cache directory) lets the call go on unclaimed, not wait for ever', async () => {
    server = await startMockChatServer(() => ({ kind: 'text', content: 'fresh' }));
    const cache = ResponseCache.forStore(dir);
    const s = createModelSession({ env: {}, baseURLs: { local: server.url }, cache });
    const key = s.keyOf('local:m', request('q'), 0);
    // A stale claim unlink refuses: here a directory (EISDIR); for a user without write access, EACCES.
    const claim = cache.claimPathOf(key);
    await mkdir(join(claim, 'x'), { recursive: true });
    const past = new Date(Date.now() - 60_000);
    await utimes(claim, past, past);
    expect(await s.chat('local:m', request('q'), { replicateIndex: 0 })).toMatchObject({ cached: false, completion: { content: 'fresh' } });
    expect(server.requests).toHaveLength(1);
  });

  it('a call claims its key in its concurrency slot: another session does not wait on a call still queued here', async () => {
    const release: Array<(r: Reply) => void> = [];
    server = await startMockChatServer(() => new Promise<Reply>((resolve) => release.push(resolve)));
    const a = createModelSession({ env: {}, baseURLs: { local: server.url }, cache: ResponseCache.forStore(dir), concurrency: { local: 1 } });
    const k1 = a.chat('local:m', request('k1'), { replicateIndex: 0 });
    await server.waitForRequests(1);
    const k2 = a.chat('local:m', request('k2'), { replicateIndex: 0 }); // queued behind k1 in a's one slot
    const b = createModelSession({ env: {}, baseURLs: { local: server.url }, cache: ResponseCache.forStore(dir) });
    const bk2 = b.chat('local:m', request('k2'), { replicateIndex: 0 });
    // b claimed k2 and sent it (it claimed k2 first: a's k2 has not reached its slot).
    await server.waitForRequests(2);
    expect(server.requests.map((r) => (r.body['messages'] as { content: string }[])[0]?.content)).toEqual(['k1', 'k2']);
    release.shift()?.({ kind: 'text', content: 'one' });
    release.shift()?.({ kind: 'text', content: 'two' });
    expect(await k1).toMatchObject({ cached: false });
    expect(await bk2).toMatchObject({ cached: false, completion: { content: 'two' } });
    expect(await k2).toMatchObject({ cached: true, completion: { content: 'two' } });
    expect(server.requests).toHaveLength(2);
  });
});
