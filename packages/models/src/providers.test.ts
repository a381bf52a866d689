import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { MissingBaseUrlError, ModelsError } from './errors.js';
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

// A review (2026-12-07): ModelsError's example caught parseModelName('gpt') as a ModelsError, but a bad
// name is a RangeError; the example now calls what throws one (a provider whose key is not set).
describe('ModelsError\'s example', () => {
  it('calls a function that throws a ModelsError, with the code it shows', () => {
    const doc = readFileSync(new URL('./errors.ts', import.meta.url), 'utf8');
    const example = /Base class of every poisson-models error[\s\S]*?```ts\n \* (.*)\n/.exec(doc)?.[1] ?? '';
    expect(example).toBe("try { resolveProvider('poe', { env: {} }); } catch (e) { if (e instanceof ModelsError) e.code; } // 'missing_api_key'");
    const e = (() => {
      try {
        resolveProvider('poe', { env: {} });
      } catch (x) {
        return x;
      }
      return null;
    })();
    expect(e).toBeInstanceOf(ModelsError);
    expect((e as ModelsError).code).toBe('missing_api_key');
    expect(() => parseModelName('gpt')).toThrow(RangeError);
  });
});
