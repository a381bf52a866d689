// The check every cache read makes: an entry is served only when it has the shape of a CacheEntry and,
// where it records them, the provider, model, replicate index and endpoint the key was computed from.
// A problem is a short phrase naming the field, never a value of the answer. Internal.

import type { CacheEntryIdentity } from '../response-cache.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0;

function completionProblem(c: unknown): string | null {
  if (!isObject(c)) return 'it has no completion object';
  if (typeof c['model'] !== 'string') return 'its completion.model is not a string';
  if (!('content' in c) || (c['content'] !== null && typeof c['content'] !== 'string')) return 'its completion.content is not a string or null';
  if (c['finish_reason'] !== null && typeof c['finish_reason'] !== 'string') return 'its completion.finish_reason is not a string or null';
  const calls = c['tool_calls'];
  if (!Array.isArray(calls)) return 'its completion.tool_calls is not a list';
  for (const call of calls) {
    const fn = isObject(call) ? call['function'] : undefined;
    if (!isObject(call) || typeof call['id'] !== 'string' || call['type'] !== 'function' || !isObject(fn) || typeof fn['name'] !== 'string' || typeof fn['arguments'] !== 'string') {
      return 'one of its completion.tool_calls is not a function call with an id, a name and arguments';
    }
  }
  const u = c['usage'];
  if (!isObject(u)) return 'its completion.usage is missing';
  for (const f of ['prompt_tokens', 'completion_tokens', 'total_tokens']) {
    if (!isCount(u[f])) return `its completion.usage.${f} is not a non-negative integer`;
  }
  if ('estimated' in u && typeof u['estimated'] !== 'boolean') return 'its completion.usage.estimated is not a boolean';
  return null;
}

/**
 * Why a parsed cache file cannot be served for `key` (and `expected`, when given), or null when it can.
 */
export function cacheEntryProblem(entry: unknown, key: string, expected?: CacheEntryIdentity): string | null {
  if (!isObject(entry)) return 'it is not an object';
  if (entry['key'] !== key) return 'its key is not the key of its file name';
  if (typeof entry['created'] !== 'string' || !Number.isFinite(Date.parse(entry['created']))) return 'its created time is missing or not a time';
  if (typeof entry['provider'] !== 'string') return 'its provider is not a string';
  if (typeof entry['model'] !== 'string') return 'its model is not a string';
  if (!isCount(entry['replicate_index'])) return 'its replicate_index is not a non-negative integer';
  if ('endpoint' in entry && entry['endpoint'] !== null && typeof entry['endpoint'] !== 'string') return 'its endpoint is not a string or null';
  const problem = completionProblem(entry['completion']);
  if (problem !== null) return problem;
  if (expected !== undefined) {
    if (entry['provider'] !== expected.provider) return `it records provider ${JSON.stringify(entry['provider'])}, not ${JSON.stringify(expected.provider)}`;
    if (entry['model'] !== expected.model) return `it records model ${JSON.stringify(entry['model'])}, not ${JSON.stringify(expected.model)}`;
    if (entry['replicate_index'] !== expected.replicateIndex) return `it records replicate_index ${String(entry['replicate_index'])}, not ${expected.replicateIndex}`;
    // Entries written before endpoints were keyed record none; where one is recorded it must be the key's.
    const want = expected.endpoint ?? null;
    if ('endpoint' in entry && entry['endpoint'] !== want) return `it records endpoint ${JSON.stringify(entry['endpoint'])}, not ${JSON.stringify(want)}`;
  }
  return null;
}
