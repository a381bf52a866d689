import type { ModelSession } from '../model-session.js';
import type { PlannedCall } from '../target-types.js';
import { estimatePromptTokens } from '../token-estimate.js';

/** One episode's planned calls summed: all calls, and the uncached (billable) ones per model. */
export interface CallTally {
  readonly calls: number;
  readonly cached: number;
  /** o200k_base prompt estimate of all calls. */
  readonly prompt: number;
  /** Output caps (`max_tokens`) of all calls. */
  readonly output: number;
  /** The models named, joined with `+`. */
  readonly model: string;
  /** Prompt estimate and output cap of the uncached calls. */
  readonly billPrompt: number;
  readonly billOutput: number;
  /** The same, per model. */
  readonly billable: ReadonlyMap<string, { readonly prompt: number; readonly output: number }>;
}

/**
 * Sums an episode's planned calls: per call the o200k_base prompt estimate, the output cap and whether
 * the session's cache holds it. Shared by the dry run (`planModelCalls`) and the run hook `plan`.
 */
export async function tallyCalls(calls: readonly PlannedCall[], session: Pick<ModelSession, 'isCached'>): Promise<CallTally> {
  let cached = 0;
  let prompt = 0;
  let output = 0;
  let billPrompt = 0;
  let billOutput = 0;
  const billable = new Map<string, { prompt: number; output: number }>();
  for (const call of calls) {
    const p = estimatePromptTokens(call.request);
    const o = call.request.max_tokens ?? 0;
    prompt += p;
    output += o;
    if (await session.isCached(call.model, call.request, call.replicateIndex)) cached += 1;
    else {
      billPrompt += p;
      billOutput += o;
      const m = billable.get(call.model) ?? { prompt: 0, output: 0 };
      m.prompt += p;
      m.output += o;
      billable.set(call.model, m);
    }
  }
  return { calls: calls.length, cached, prompt, output, model: [...new Set(calls.map((c) => c.model))].join('+'), billPrompt, billOutput, billable };
}

/** A target's `estimate(cfg)` from its planned calls: the calls, and per call the prompt estimate plus the output cap. */
export function estimateCalls(calls: readonly PlannedCall[]): { calls: number; tokens: number } {
  return { calls: calls.length, tokens: calls.reduce((s, c) => s + estimatePromptTokens(c.request) + (c.request.max_tokens ?? 0), 0) };
}
