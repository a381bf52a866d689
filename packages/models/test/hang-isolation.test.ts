// Issue 15, item 1: an episode's timeout aborts its HTTP call and frees its per-provider slot at once,
// so a model that hangs costs only its own episodes. A real sweep (poisson-prove's executor) over the
// loopback Chat Completions server: `openai:hang` never answers, `openai:careful` answers at once.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { episodes, sweep } from 'poisson-prove';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { GOOD_ANSWERS } from '../src/__fixtures__/skill-answers.js';
import { startMockChatServer, type MockChatServer } from '../src/__fixtures__/mock-chat-server.js';
import { createModelSession } from '../src/model-session.js';
import { createRubricTarget } from '../src/rubric-target.js';
import { loadRubricTasks } from '../src/rubric-task-files.js';

const EXAMPLES = fileURLToPath(new URL('../../../examples/skill_tasks/', import.meta.url));
let server: MockChatServer | undefined;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'poisson-models-hang-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

it('a hanging model beside a healthy one: the hung episodes time out, abort their calls, and the healthy model loses nothing', async () => {
  const tasks = (await loadRubricTasks(EXAMPLES)).filter((t) => t.id === 'claim_discipline_001');
  const closed: number[] = [];
  server = await startMockChatServer((request, index) => {
    if (request.body['model'] === 'hang') return { kind: 'hang' };
    return { kind: 'text', content: GOOD_ANSWERS['claim_discipline_001'] as string };
  });
  // Count hung requests whose connection the client closed (the abort reached the socket).
  server.events.on('closed', (i: number) => closed.push(i));
  const session = createModelSession({
    env: { OPENAI_API_KEY: 'sk-test-hang-0123456789' },
    baseURLs: { openai: server.url },
    concurrency: 4, // per provider: as many as episodes in flight, shared by both models
    timeoutMs: 600_000, // the client's own per-call timeout never fires in this test
    maxAttempts: 4,
    cache: null,
  });
  const target = createRubricTarget({ session, tasks, maxOutputTokens: 64 });
  const spec = [
    'target_id = "hang-isolation"',
    't_unit = "calls"',
    'replicates = 8',
    '[axes.model]',
    'type = "categorical"',
    'values = ["openai:hang", "openai:careful"]',
    '[axes.task]',
    'type = "categorical"',
    'values = ["claim_discipline_001"]',
  ].join('\n');
  const run = await sweep({ spec, target, store: dir, maxMde: 1, salt: 'hang-1', concurrency: 4, timeoutMs: 1500 });
  const rows = await episodes(dir, run.run_id);
  const careful = rows.filter((r) => r['model'] === 'openai:careful');
  const hang = rows.filter((r) => r['model'] === 'openai:hang');
  expect(careful).toHaveLength(8);
  expect(careful.map((r) => r.error)).toEqual(Array(8).fill(null));
  expect(careful.every((r) => r.outcome === 'passed')).toBe(true);
  expect(hang).toHaveLength(8);
  for (const r of hang) expect(r.error).toMatch(/^TimeoutError: the target ran longer than the timeout of 1500 ms/);
  // One HTTP request per episode: the aborted call is not retried, the healthy one was never starved.
  const byModel = (m: string) => server!.requests.filter((r) => r.body['model'] === m).length;
  expect(byModel('careful')).toBe(8);
  expect(byModel('hang')).toBe(8);
  // Every hung request's connection was closed by the client (its slot was freed by the abort).
  await server.waitForClosed(8);
  expect(closed.length).toBe(8);
}, 60_000);
