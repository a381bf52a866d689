// The pages `node scripts/docs-run.mjs` runs (see there). A page's optional `setup({ dir, root })` starts
// what its commands need and returns `{ env, stop }`: `env` is added to every command's environment and
// `stop()` runs when the page is done.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** examples/skill_tasks/serve-mock.ts in a child process; its first line is the export to use. */
async function mockModel({ root }) {
  const child = spawn(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), 'examples/skill_tasks/serve-mock.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const [first] = await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(([code]) => Promise.reject(new Error(`serve-mock.ts exited ${code} before printing its URL`))),
  ]);
  const m = /^export POISSON_LOCAL_BASE_URL=(\S+)$/.exec(first);
  if (!m) throw new Error(`serve-mock.ts printed ${JSON.stringify(first)}`);
  return {
    env: { POISSON_LOCAL_BASE_URL: m[1] },
    stop: async () => {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export const PAGES = {
  'diff.md': { path: 'docs/diff.md' },
  'models.md': { path: 'docs/models.md', setup: mockModel },
  'tasks.md': { path: 'docs/tasks.md' },
  'store.md': { path: 'docs/store.md' },
  'import.md': { path: 'docs/import.md' },
  'view.md': { path: 'docs/view.md' },
  'tutorial.md': { path: 'docs/tutorial.md' },
  depth_effect: { path: 'examples/depth_effect/README.md' },
};
