import { defineProject } from 'vitest/config';

// Checks over the repository as a whole (docs that are generated from code). Imports of poisson-* read
// the packages' sources (the `poisson-source` condition, as each package's project does), so that
// barrel-arguments.test.ts calls today's code, not the last build's.
export default defineProject({
  resolve: { conditions: ['poisson-source'] },
  ssr: { resolve: { conditions: ['poisson-source'] } },
  test: { name: 'repo', include: ['**/*.test.ts'] },
});
