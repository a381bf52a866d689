import { describe, expect, it } from 'vitest';
import { envSessionOptions } from './env-session-options.js';

describe('envSessionOptions', () => {
  it('reads base URLs, concurrency, call timeout and attempts; defaults otherwise', () => {
    expect(envSessionOptions({})).toEqual({ baseURLs: {}, concurrency: 4, timeoutMs: 120_000, maxAttempts: 4 });
    expect(envSessionOptions({ POISSON_LOCAL_BASE_URL: 'http://127.0.0.1:8000/v1', POISSON_CONCURRENCY: '8', POISSON_CALL_TIMEOUT_MS: '30000', POISSON_MAX_ATTEMPTS: '2', OPENAI_API_KEY: 'k' })).toEqual({
      baseURLs: { local: 'http://127.0.0.1:8000/v1' },
      concurrency: 8,
      timeoutMs: 30_000,
      maxAttempts: 2,
    });
  });

  it('names the variable of a value that is not an integer >= 1', () => {
    expect(() => envSessionOptions({ POISSON_MAX_ATTEMPTS: '0' })).toThrow('POISSON_MAX_ATTEMPTS must be an integer >= 1, got "0"');
    expect(() => envSessionOptions({ POISSON_CALL_TIMEOUT_MS: '1.5' })).toThrow(RangeError);
  });

  // A review (2026-12-07): 3000000000 went to the client's timer, which fired after 1 ms: every call timed out.
  it('refuses a call timeout longer than a timer can wait', () => {
    expect(() => envSessionOptions({ POISSON_CALL_TIMEOUT_MS: '3000000000' })).toThrow(
      'POISSON_CALL_TIMEOUT_MS must be at most 2147483647 (about 24.8 days, the longest a timer waits), got "3000000000"',
    );
    expect(envSessionOptions({ POISSON_CALL_TIMEOUT_MS: '2147483647' }).timeoutMs).toBe(2_147_483_647);
  });
});
