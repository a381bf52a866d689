import { MissingApiKeyError, MissingBaseUrlError } from './errors.js';
import { publicBaseURL } from './internal/base-url.js';

/** The provider presets a model name may start with. */
export type ProviderName = 'poe' | 'deepseek' | 'openai' | 'local';

/**
 * A provider preset: where its OpenAI-compatible Chat Completions endpoint lives, which environment
 * variable holds its key, and whether its API documents the `seed` sampling parameter.
 */
export interface ProviderPreset {
  readonly name: ProviderName;
  /** Base URL of the API; `null` for `local`, which is given one. */
  readonly baseURL: string | null;
  /** Environment variable holding the key; `null` when no key is needed. */
  readonly apiKeyEnv: string | null;
  /** Whether the request carries `seed` (the episode seed). */
  readonly acceptsSeed: boolean;
  /** Where the preset's shape is documented. */
  readonly docs: string;
}

/**
 * The four provider presets.
 *
 * - `poe`: `https://api.poe.com/v1`, `POE_API_KEY` (Poe, "External Applications: OpenAI Compatible API",
 *   https://creator.poe.com/docs/external-applications). `seed` is not documented there, so not sent.
 * - `deepseek`: `https://api.deepseek.com`, `DEEPSEEK_API_KEY` (DeepSeek API docs, "Your First API Call",
 *   https://api-docs.deepseek.com/). `seed` is not a documented request field, so not sent.
 * - `openai`: `https://api.openai.com/v1`, `OPENAI_API_KEY`; `seed` is sent.
 * - `local`: any base URL (vLLM, llama.cpp, a test server), no key; `seed` is sent.
 *
 * @example
 * ```ts
 * PROVIDER_PRESETS.poe.baseURL; // 'https://api.poe.com/v1'
 * ```
 * @see https://creator.poe.com/docs/external-applications
 * @see https://api-docs.deepseek.com/
 */
export const PROVIDER_PRESETS: Readonly<Record<ProviderName, ProviderPreset>> = Object.freeze({
  poe: Object.freeze({
    name: 'poe',
    baseURL: 'https://api.poe.com/v1',
    apiKeyEnv: 'POE_API_KEY',
    acceptsSeed: false,
    docs: 'https://creator.poe.com/docs/external-applications',
  }),
  deepseek: Object.freeze({
    name: 'deepseek',
    baseURL: 'https://api.deepseek.com',
    apiKeyEnv: 'DEEPSEEK_API_KEY',
    acceptsSeed: false,
    docs: 'https://api-docs.deepseek.com/',
  }),
  openai: Object.freeze({
    name: 'openai',
    baseURL: 'https://api.openai.com/v1',
    apiKeyEnv: 'OPENAI_API_KEY',
    acceptsSeed: true,
    docs: 'https://platform.openai.com/docs/api-reference/chat',
  }),
  local: Object.freeze({
    name: 'local',
    baseURL: null,
    apiKeyEnv: null,
    acceptsSeed: true,
    docs: 'any OpenAI-compatible server (vLLM, llama.cpp)',
  }),
} satisfies Record<ProviderName, ProviderPreset>);

/** A parsed model name `provider:model`. */
export interface ModelRef {
  readonly name: string;
  readonly provider: ProviderName;
  readonly model: string;
}

function isProviderName(value: string): value is ProviderName {
  return Object.prototype.hasOwnProperty.call(PROVIDER_PRESETS, value);
}

/**
 * Splits a model name `provider:model` at its first colon.
 *
 * @param name - e.g. `poe:gpt-5.5`, `deepseek:deepseek-v4-pro`, `local:qwen3:8b`.
 * @returns `{ name, provider, model }`, frozen.
 * @throws TypeError when `name` is not a string; RangeError when it has no known provider prefix or no model.
 * @example
 * ```ts
 * parseModelName('poe:gpt-5.5'); // { name: 'poe:gpt-5.5', provider: 'poe', model: 'gpt-5.5' }
 * ```
 * @see PROVIDER_PRESETS
 */
export function parseModelName(name: string): ModelRef {
  if (typeof name !== 'string') throw new TypeError(`name must be a string "provider:model"; got ${typeof name}.`);
  const colon = name.indexOf(':');
  const provider = colon < 0 ? '' : name.slice(0, colon);
  const model = colon < 0 ? '' : name.slice(colon + 1);
  if (!isProviderName(provider) || model.length === 0) {
    throw new RangeError(
      `name must be "provider:model" with provider one of ${Object.keys(PROVIDER_PRESETS).join(', ')}; got ${JSON.stringify(name)}.`,
    );
  }
  return Object.freeze({ name, provider, model });
}

/** Environment variables as passed in by the caller (the CLI passes `process.env`). */
export type EnvSource = Readonly<Record<string, string | undefined>>;

/** Options of {@link resolveProvider}. */
export interface ResolveProviderOptions {
  /** Where keys are read from. Library code never reads `process.env` itself. */
  readonly env: EnvSource;
  /** Base URL per provider, overriding the preset (required for `local` unless POISSON_LOCAL_BASE_URL is set). */
  readonly baseURLs?: Partial<Record<ProviderName, string>>;
}

/**
 * A resolved provider: preset, base URL and (privately) its key. The key is held in a private field,
 * so it is absent from `JSON.stringify`, `Object.keys` and `util.inspect` of this object.
 */
export class ProviderEndpoint {
  readonly provider: ProviderName;
  readonly baseURL: string;
  readonly acceptsSeed: boolean;
  readonly #apiKey: string | null;
  constructor(provider: ProviderName, baseURL: string, acceptsSeed: boolean, apiKey: string | null) {
    this.provider = provider;
    this.baseURL = baseURL;
    this.acceptsSeed = acceptsSeed;
    this.#apiKey = apiKey;
    Object.freeze(this);
  }
  /** The key to send (a fixed placeholder for keyless providers). Used only to build the HTTP client. */
  apiKeyForClient(): string {
    return this.#apiKey ?? 'no-key';
  }
  /**
   * The endpoint as the response cache keys it: `null` for a named preset (`poe`, `deepseek`, `openai`)
   * at its preset base URL, so those keys stay as they were; otherwise (every `local` server, and a named
   * preset pointed elsewhere, e.g. a proxy) the base URL without credentials, query or fragment. So the
   * cache is per endpoint: two local servers serving one model name never share entries.
   */
  get cacheEndpoint(): string | null {
    const url = publicBaseURL(this.baseURL);
    const preset = PROVIDER_PRESETS[this.provider].baseURL;
    return this.provider !== 'local' && preset !== null && url === publicBaseURL(preset) ? null : url;
  }
  /** Secret strings to scrub from any text that leaves the client. */
  secrets(): readonly string[] {
    return this.#apiKey === null ? [] : [this.#apiKey];
  }
  toJSON(): Record<string, unknown> {
    return { provider: this.provider, baseURL: publicBaseURL(this.baseURL), acceptsSeed: this.acceptsSeed };
  }
}

/**
 * Resolves a provider preset against an env object: base URL and key. A missing key or base URL is an
 * error here, before the first call.
 *
 * @param provider - a preset name.
 * @param options - `{ env, baseURLs? }`.
 * @returns a {@link ProviderEndpoint}.
 * @throws MissingApiKeyError when the preset needs a key that `env` lacks (or is empty).
 * @throws MissingBaseUrlError for `local` without a base URL.
 * @example
 * ```ts
 * resolveProvider('deepseek', { env: { DEEPSEEK_API_KEY: 'sk-...' } }).baseURL; // 'https://api.deepseek.com'
 * ```
 * @see PROVIDER_PRESETS
 */
export function resolveProvider(provider: ProviderName, options: ResolveProviderOptions): ProviderEndpoint {
  if (!isProviderName(provider)) throw new RangeError(`provider must be one of ${Object.keys(PROVIDER_PRESETS).join(', ')}; got ${JSON.stringify(provider)}.`);
  const preset = PROVIDER_PRESETS[provider];
  const baseURL =
    options.baseURLs?.[provider] ?? preset.baseURL ?? (provider === 'local' ? options.env['POISSON_LOCAL_BASE_URL'] : undefined);
  if (baseURL === undefined || baseURL === '') throw new MissingBaseUrlError(provider);
  let apiKey: string | null = null;
  if (preset.apiKeyEnv !== null) {
    const value = options.env[preset.apiKeyEnv];
    if (value === undefined || value.trim() === '') throw new MissingApiKeyError(provider, preset.apiKeyEnv);
    apiKey = value.trim();
  }
  return new ProviderEndpoint(provider, baseURL, preset.acceptsSeed, apiKey);
}
