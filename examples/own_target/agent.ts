/**
 * A stand-in for your own agent: an async function that gets a task and a system prompt and returns an
 * answer, as a call to a model would. It adds two numbers, and slips (answers one off) on some tasks; how
 * often depends on the prompt, as it would for a real model. Nothing here knows about poisson.
 *
 * A slip is decided by a number drawn from the task's seed, `u`, and the prompt's slip rate: the agent slips
 * when `u < SLIP_RATE[prompt][difficulty]`. The same seed gives the same `u` under both prompts (a task
 * that is hard for one prompt is hard for the other), so the two prompts differ only on the seeds with
 * `u` between their two rates.
 */

/** The two system prompts compared in the tutorial. */
export const PROMPTS = {
  terse: 'Answer with the sum.',
  stepwise: 'Add the numbers digit by digit, carrying as you go, then answer with the sum.',
} as const;
export type PromptName = keyof typeof PROMPTS;

/** How often the stand-in slips, per prompt and difficulty (the effect the tutorial's diff should find). */
export const SLIP_RATE: Readonly<Record<PromptName, Readonly<Record<Difficulty, number>>>> = {
  terse: { easy: 0.2, hard: 0.4 },
  stepwise: { easy: 0.08, hard: 0.2 },
};
export type Difficulty = 'easy' | 'hard';

/** A task: two numbers to add, drawn from the seed (2-digit numbers when easy, 4-digit when hard). */
export type Task = { readonly a: number; readonly b: number; readonly difficulty: Difficulty };

/** mulberry32: a small seeded generator of uniform numbers in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The task for a seed and a difficulty. */
export function makeTask(seed: number, difficulty: Difficulty): Task {
  const r = random(seed);
  const digits = difficulty === 'easy' ? 2 : 4;
  const draw = (): number => 10 ** (digits - 1) + Math.floor(r() * 9 * 10 ** (digits - 1));
  return { a: draw(), b: draw(), difficulty };
}

/**
 * The agent: reads the task, "thinks" (one step per digit), answers. Async, as a model call is.
 *
 * @returns the answer and the number of steps it took.
 */
export async function agent(task: Task, systemPrompt: string, seed: number): Promise<{ answer: number; steps: number }> {
  await new Promise((resolve) => setImmediate(resolve));
  const prompt = (Object.keys(PROMPTS) as PromptName[]).find((k) => PROMPTS[k] === systemPrompt) ?? 'terse';
  const u = random(seed ^ 0x5bd1e995)(); // the task's difficulty for this agent: the same under both prompts
  const slips = u < SLIP_RATE[prompt][task.difficulty];
  const steps = String(task.a + task.b).length + (prompt === 'stepwise' ? 1 : 0);
  return { answer: task.a + task.b + (slips ? 1 : 0), steps };
}
