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
});
