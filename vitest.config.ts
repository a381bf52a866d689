import { defineConfig } from 'vitest/config';

/**
 * One test project per package, run from source: the `source` export condition points every
 * `poisson-*` import at the package's src/ (no build needed). `examples` and `test` have their own
 * configs (they run against the built packages).
 */
const pkg = (name: string) => ({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  // 60 s per test rather than vitest's 5 s: the heaviest property tests take ~2 s on an idle 2-core
  // machine and several times that when it is loaded; a hang still fails, later.
  test: { name, root: `packages/${name}`, include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 60_000 },
});

export default defineConfig({
  test: {
    projects: [pkg('core'), pkg('stats'), pkg('tasks'), pkg('prove'), pkg('models'), 'examples', 'test'],
  },
});
