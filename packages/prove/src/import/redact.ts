import { setOwn } from '../internal/own-key.js';

/** Keys whose values are never recorded: they hold credentials. */
const SECRET_KEY = /(api[_-]?key|apikey|token|secret|password|passwd|authorization|credential)/i;

/**
 * A copy of a JSON value with the values of credential-like keys (api_key, token, secret, password,
 * authorization, credential) replaced by `***`, so that a harness's config can be recorded in a manifest.
 *
 * @example
 * ```ts
 * redactSecrets({ providers: [{ id: 'openai:gpt-4o', config: { apiKey: 'sk-1' } }] });
 * // { providers: [{ id: 'openai:gpt-4o', config: { apiKey: '***' } }] }
 * ```
 */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value === null || typeof value !== 'object') return value ?? null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) setOwn(out, k, SECRET_KEY.test(k) && v !== null && typeof v !== 'object' ? '***' : redactSecrets(v));
  return out;
}
