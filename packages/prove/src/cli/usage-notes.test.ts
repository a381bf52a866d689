import { describe, expect, it } from 'vitest';
import { usageNotes } from './format.js';

// A review (evening of 2026-12-06): a run whose cache could not be written printed "the new answers
// replaced them" on its damaged line beside the cache line saying those answers could not be written.
describe('usageNotes', () => {
  const base = { calls: 5, cache_hits: 0, prompt_tokens: 10, completion_tokens: 10, billed_tokens: 20 };
  it('the damaged line says the new answers replaced the entries, unless answers could not be written', () => {
    const ok = Object.fromEntries(usageNotes({ ...base, damaged_cache_entries: 2 }));
    expect(ok['damaged']).toBe('2 cache entries could not be served (unreadable, or not the shape of an answer) and were called again; the new answers replaced them');
    const failed = Object.fromEntries(usageNotes({ ...base, damaged_cache_entries: 1, cache_write_failures: 1, cache_write_error: 'EISDIR' }));
    expect(failed['damaged']).toBe('1 cache entry could not be served (unreadable, or not the shape of an answer) and was called again; the new answer replaced it where the cache could be written (the cache line)');
    expect(failed['cache']).toContain('1 answer paid for could not be written to the response cache (first error: EISDIR)');
  });
});
