// poisson-models: sweep targets that call OpenAI-compatible model APIs (Poe, DeepSeek, OpenAI, local
// servers): providers, the chat client, the response cache, sessions with concurrency, retries and token
// budgets, the model policy for poisson-tasks, rubric-graded answer tasks, dry runs and public reports.
export {
  BudgetExceededError,
  BudgetExhaustedError,
  MissingApiKeyError,
  MissingBaseUrlError,
  ModelCallError,
  ModelsError,
  PriceTableError,
  RubricTaskError,
} from './errors.js';
export { parseModelName, PROVIDER_PRESETS, ProviderEndpoint, resolveProvider } from './providers.js';
export type { EnvSource, ModelRef, ProviderName, ProviderPreset, ResolveProviderOptions } from './providers.js';
export { envSessionOptions, runSession } from './env-session-options.js';
export type { EnvSessionOptions } from './env-session-options.js';
export type { ChatCompletion, ChatMessage, ChatRequest, ChatTool, ChatToolCall, ChatUsage } from './chat-types.js';
export { createChatClient, requestBody, retryAfterMs } from './chat-client.js';
export type { AttemptEnd, ChatCallEvent, ChatCallResult, ChatClient, ChatClientOptions } from './chat-client.js';
export { cacheKey, CLAIM_HEARTBEAT_MS, CLAIM_STALE_MS, ResponseCache } from './response-cache.js';
export type { CacheClaim, CacheEntry, CacheEntryIdentity, CacheKeyInput, CacheRead, ClaimState } from './response-cache.js';
export { TokenBudget } from './token-budget.js';
export { createModelSession, UsageMeter } from './model-session.js';
export type { ModelCall, ModelSession, ModelSessionEvent, ModelSessionOptions, UsageTotals } from './model-session.js';
export { estimatePromptTokens } from './token-estimate.js';
export type { EpisodeContext, ModelTarget, PlannedCall, TargetConfig, TargetResult } from './target-types.js';
export { createModelPolicy, modelTurnRequest } from './model-policy.js';
export type { ModelPolicyOptions } from './model-policy.js';
export { createModelTaskTarget, modelTaskTargets } from './model-task-target.js';
export type { ModelTaskTargetOptions, RegistryLike } from './model-task-target.js';
export { DEFAULT_PROMPT_VARIANTS, DEFAULT_SYSTEM_PROMPT, parseRubricTask, renderPrompt } from './rubric-task.js';
export type { ClaimExemptions, HardFailureRule, RubricClaim, RubricPoint, RubricTask } from './rubric-task.js';
export { DEFAULT_NEGATION_WINDOW, matchClaim, NEGATION_CUES, NEGATION_PHRASES, NEGATED_APPROVALS, NON_NEGATING_FOLLOWERS, REJECTING_VERDICTS } from './claim-match.js';
export type { ClaimExemption, ClaimMatch, ClaimMatchRule } from './claim-match.js';
export { loadRubricTasks } from './rubric-task-files.js';
export { gradeRubricAnswer } from './rubric-grader.js';
export type { RubricGrade } from './rubric-grader.js';
export { createRubricTarget } from './rubric-target.js';
export type { RubricTargetOptions } from './rubric-target.js';
export { modelRunTarget } from './model-run-target.js';
export type { EpisodeCallPlan, ModelRunTarget, RunRuntime, RunUsageTotals } from './model-run-target.js';
export { parsePriceTable } from './price-table.js';
export type { ModelPrice, PriceTable } from './price-table.js';
export { checkPlanBudget, matrixEpisodes, planCsv, planModelCalls, planSummary } from './dry-run.js';
export type { ModelCallPlan, PlanCost, PlannedEpisode, PlanRow, PlanTotals } from './dry-run.js';
export { matrixCsv, matrixEpisodeFromRow, matrixMarkdown, summarizeModelMatrix } from './model-matrix-report.js';
export type { MatrixCell, MatrixEpisode, MatrixReport } from './model-matrix-report.js';
