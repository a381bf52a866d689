// A target module for the poisson-prove CLI: a model plays the generated relay tasks of poisson-tasks,
// one export per arm of the registration, named as the reference targets are but with the policy
// `model` (`model_depth_d1`, `model_depth_d3`, `model_depth_d1_h3`), pinned to the same registration.
//
//   POISSON_REGISTRATION=registration.toml POISSON_REGISTRATION_SHA256=<its sha256> \
//   POISSON_MODEL=openai:gpt-5.5 OPENAI_API_KEY=... \
//   poisson-prove sweep sweep.toml --target examples/relay_tasks/targets.ts:model_depth_d3 --max-mde 0.3 --salt S --yes
//
// The model is part of the target (its identity: this module, the export, POISSON_MODEL; every row's
// meta.model names it), not an axis of the spec: the model run has the reference run's conditions, so
// on one salt `poisson-prove diff REFERENCE_RUN MODEL_RUN` pairs them episode by episode.
//
// Settings, from the environment (a target module is user code, so it may read process.env):
//   POISSON_REGISTRATION          the pre-registration TOML (required)
//   POISSON_REGISTRATION_SHA256   its sha256, 64 hex digits (required: a changed file is refused)
//   POISSON_MODEL                 provider:model, e.g. openai:gpt-5.5, local:qwen3:8b (required)
//   <PROVIDER>_API_KEY            POE_API_KEY, DEEPSEEK_API_KEY, OPENAI_API_KEY (never written anywhere)
//   POISSON_<PROVIDER>_BASE_URL   a base URL per provider (POISSON_LOCAL_BASE_URL for local:* models)
//   POISSON_CONCURRENCY           calls in flight per provider (default 4; keep it >= --concurrency)
//   POISSON_CALL_TIMEOUT_MS       per HTTP call (default 120000); the episode's --timeout aborts it sooner
//   POISSON_MAX_ATTEMPTS          attempts per call, the first included (default 4)
//   POISSON_CACHE_ENDPOINT        a name for the local endpoint in cache keys (a server on an ephemeral port)
import { envSessionOptions, modelRunTarget, modelTaskTargets, runSession, type ModelRunTarget, type RunRuntime } from 'poisson-models';
import { loadRegistry } from 'poisson-tasks/adapter';

const env = process.env;

function required(name: string, hint: string): string {
  const v = env[name];
  if (v === undefined || v === '') throw new Error(`${name} is not set: ${hint}`);
  return v;
}

const registry = loadRegistry(required('POISSON_REGISTRATION', 'the path of the pre-registration TOML'), {
  sha256: required('POISSON_REGISTRATION_SHA256', 'the sha256 of the registration file (sha256sum registration.toml)'),
});
const model = required('POISSON_MODEL', 'the model that plays the tasks, provider:model (e.g. openai:gpt-5.5)');
envSessionOptions(env); // checks POISSON_CONCURRENCY, POISSON_CALL_TIMEOUT_MS, POISSON_MAX_ATTEMPTS at import
const cacheEndpoint = env['POISSON_CACHE_ENDPOINT'];

/** One run target per arm: a fresh session per run (cache under the store, budget, output cap). */
function armTarget(name: string): ModelRunTarget {
  return modelRunTarget(
    (rt: RunRuntime) => {
      // The cache under the store, --refresh-cache, the budget, and the POISSON_* settings above.
      const session = runSession(rt, env, cacheEndpoint ? { cacheEndpoints: { local: cacheEndpoint } } : {});
      const target = modelTaskTargets(registry, { session, model, ...(rt.maxOutputTokens !== null ? { maxOutputTokens: rt.maxOutputTokens } : {}), temperature: 0 })[name];
      if (!target) throw new Error(`the registration ${registry.path} has no arm for the target ${name}`);
      return { session, target };
    },
    { store: env['POISSON_STORE'] ?? 'store', refreshCache: false, maxOutputTokens: null, budgetTokens: null, dryRun: false },
  );
}

/** The depth knob's arms (d1, d3, and the length-matched control d1+h3), as the example registration has them. */
export const model_depth_d1 = armTarget('model_depth_d1');
export const model_depth_d3 = armTarget('model_depth_d3');
export const model_depth_d1_h3 = armTarget('model_depth_d1_h3');
