// Serves the scripted mock model of mock-model.ts on 127.0.0.1 until Ctrl-C, for the worked example of
// docs/models.md. It prints the line that points the `local:*` models of targets.ts at it:
//
//   $ npx tsx examples/skill_tasks/serve-mock.ts
//   export POISSON_LOCAL_BASE_URL=http://127.0.0.1:40123/v1
//
// Paste that line into the shell you run poisson-prove from. Nothing leaves this machine.
import { fileURLToPath } from 'node:url';
import { loadRubricTasks } from 'poisson-models';
import { startMockModel } from './mock-model.js';

const tasks = await loadRubricTasks(fileURLToPath(new URL('.', import.meta.url)));
const mock = await startMockModel(Object.fromEntries(tasks.map((t) => [t.id, t.prompt])));
console.log(`export POISSON_LOCAL_BASE_URL=${mock.url}`);
const stop = (): void => void mock.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
