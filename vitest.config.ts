import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * One test project per package, run from source: the `poisson-source` export condition points every
 * `poisson-*` import at the package's src/ (no build needed). `examples` and `test` have their own
 * configs (they run against the built packages).
 */
const pkg = (name: string) => ({
  resolve: { conditions: ['poisson-source'] },
  ssr: { resolve: { conditions: ['poisson-source'] } },
  // 60 s per test rather than vitest's 5 s: the heaviest property tests take ~2 s on an idle 2-core
  // machine and several times that when it is loaded; a hang still fails, later. The same for hooks
  // (vitest's 10 s): resolve-run.test.ts's beforeEach (three runs created and closed, ~80 ms alone, each
  // with its fsyncs and two git processes) once ran past 10 s in a fresh-clone CI while the suite's other
  // file wrote and fsynced beside it, and passed at once alone.
  test: { name, root: `packages/${name}`, include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
});

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on the 2-core CI machine, where most test
    // files spend their time waiting on child processes (the CLI, Redis, a browser) with a core idle.
    // Two files at a time took the suite from 525 s to ~375 s there. Every fault test waits on events
    // and files, never on a fixed sleep, so a loaded machine makes them slower, not flaky.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ['./scripts/test-tmpdir.mjs'],
    projects: [pkg('core'), pkg('stats'), pkg('tasks'), pkg('prove'), pkg('models'), 'examples', 'test'],
  },
});
