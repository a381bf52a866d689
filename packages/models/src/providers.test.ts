import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MissingBaseUrlError } from './errors.js';
import { parseModelName, PROVIDER_PRESETS, resolveProvider } from './providers.js';

describe('providers', () => {
  it('parses provider:model at the first colon', () => {
    expect(parseModelName('poe:gpt-5.5')).toEqual({ name: 'poe:gpt-5.5', provider: 'poe', model: 'gpt-5.5' });
    expect(parseModelName('local:qwen3:8b')).toEqual({ name: 'local:qwen3:8b', provider: 'local', model: 'qwen3:8b' });
    expect(() => parseModelName('mystery:x')).toThrow(RangeError);
    expect(() => parseModelName('poe:')).toThrow(/provider:model/);
  });
  it('has the documented presets', () => {
    expect(PROVIDER_PRESETS.poe).toMatchObject({ baseURL: 'https://api.poe.com/v1', apiKeyEnv: 'POE_API_KEY' });
    expect(PROVIDER_PRESETS.deepseek).toMatchObject({ baseURL: 'https://api.deepseek.com', apiKeyEnv: 'DEEPSEEK_API_KEY' });
    expect(PROVIDER_PRESETS.openai).toMatchObject({ apiKeyEnv: 'OPENAI_API_KEY' });
    expect(PROVIDER_PRESETS.local).toMatchObject({ baseURL: null, apiKeyEnv: null });
  });
  it('keeps the key out of every rendering of the endpoint', () => {
    const key = 'sk-very-secret-000111222';
    const e = resolveProvider('openai', { env: { OPENAI_API_KEY: key } });
    expect(JSON.stringify(e)).not.toContain(key);
    expect(inspect(e, { showHidden: true, depth: 5 })).not.toContain(key);
    expect(Object.values(e).join(' ')).not.toContain(key);
    expect(e.apiKeyForClient()).toBe(key);
  });
  it('local needs a base URL (option or POISSON_LOCAL_BASE_URL) and no key', () => {
    expect(() => resolveProvider('local', { env: {} })).toThrow(MissingBaseUrlError);
    expect(resolveProvider('local', { env: { POISSON_LOCAL_BASE_URL: 'http://127.0.0.1:8000/v1' } }).baseURL).toBe('http://127.0.0.1:8000/v1');
    expect(resolveProvider('local', { env: {}, baseURLs: { local: 'http://h/v1' } }).secrets()).toEqual([]);
  });
});
