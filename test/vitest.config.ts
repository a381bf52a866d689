import { defineProject } from 'vitest/config';

// Checks over the repository as a whole (docs that are generated from code).
export default defineProject({
  test: { name: 'repo', include: ['**/*.test.ts'] },
});
