// Shared setup of the end-to-end CLI tests (prove-cli.test.ts, prove-cli-failures.test.ts): the
// poisson-prove CLI as a subprocess, the skill matrix file, and the task a scripted request is for.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { RecordedRequest } from '../src/__fixtures__/mock-chat-server.js';

const run = promisify(execFile);
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PROVE_CLI = join(ROOT, 'packages/prove/src/cli/main.ts');

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `prove <args>` from source with only PATH, `OPENAI_API_KEY=key` and `POISSON_OPENAI_BASE_URL=baseUrl`
 * (and `extraEnv`) in its environment; pushes its stdout and stderr onto `outputs` (the tests scan them for the key).
 */
export async function runProveCli(args: readonly string[], key: string, baseUrl: string, outputs: string[], extraEnv: Readonly<Record<string, string>> = {}): Promise<CliResult> {
  const env = { PATH: process.env['PATH'] ?? '', OPENAI_API_KEY: key, POISSON_OPENAI_BASE_URL: baseUrl, ...extraEnv };
  let r: CliResult;
  try {
    const ok = await run(process.execPath, ['--conditions=poisson-source', '--import', 'tsx', PROVE_CLI, ...args], { cwd: ROOT, env });
    r = { code: 0, stdout: ok.stdout, stderr: ok.stderr };
  } catch (e) {
    const err = e as CliResult;
    r = { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
  outputs.push(r.stdout, r.stderr);
  return r;
}

/** The sweep file of the skill matrix: axes model × prompt_variant ("standard") × task. */
export function skillMatrixToml(targetId: string, replicates: number, models: readonly string[], tasks: readonly string[]): string {
  return [
    `target_id = "${targetId}"`,
    't_unit = "calls"',
    `replicates = ${replicates}`,
    '[axes.model]',
    'type = "categorical"',
    `values = ${JSON.stringify(models)}`,
    '[axes.prompt_variant]',
    'type = "categorical"',
    'values = ["standard"]',
    '[axes.task]',
    'type = "categorical"',
    `values = ${JSON.stringify(tasks)}`,
  ].join('\n');
}

/** The id of the task whose prompt the request's user message holds, or ''. */
export function taskOfRequest(r: RecordedRequest, prompts: Readonly<Record<string, { readonly prompt: string }>>): string {
  const user = (r.body['messages'] as Array<{ role: string; content: string }>).find((m) => m.role === 'user')?.content ?? '';
  return Object.keys(prompts).find((id) => user.includes(prompts[id]?.prompt as string)) ?? '';
}
