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

  // A review (third session of 2026-12-07): 200s with a usage and no choices were billed by the server and
  // counted nowhere; the model session now counts them (billed_failed_attempts), and the attempts line says so.
  it('the attempts line names the requests billed without an answer', () => {
    const notes = Object.fromEntries(usageNotes({ ...base, failed_attempts: 3, billed_failed_attempts: 2, unanswered_attempts: 1 }));
    expect(notes['attempts']).toBe(
      '3 HTTP requests brought no answer and were retried or given up; 2 of them were answered 200 with a usage and no answer (no choices): billed, and their tokens are in the billed count and the budget; 1 of them never got one (timed out, dropped, or aborted in flight): a provider may bill the work of such a request, which no token count above holds and the budget did not count',
    );
  });

  // A review (third session of 2026-12-07): a sweep SIGKILLed 0.4 s in had billed 56,046 tokens and recorded
  // 1,849; its resume replayed the answers it had paid for as cache hits, and the run total read under the
  // budget with nothing saying so. A run resumed after a kill now says its usage is a lower bound.
  it('a run resumed after a kill says its usage is a lower bound', () => {
    const resumes = [{ at: '2026-12-07T05:00:00.000Z', missing: 3, command: [], after_kill: true }];
    const notes = Object.fromEntries(usageNotes(base, resumes));
    expect(notes['lower bound']).toBe(
      'the run was resumed after its writer was killed (2026-12-07T05:00:00.000Z): the calls it made after its last usage write (up to 0.25 s of calls, and those in flight at the kill) were paid for but are in no count above, and their answers, where cached, were replayed as cache hits; the provider\'s bill is the sure figure',
    );
    expect(Object.fromEntries(usageNotes(base, [{ ...resumes[0]!, after_kill: undefined }]))['lower bound']).toBeUndefined();
  });
});
