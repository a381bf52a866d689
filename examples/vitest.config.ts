import { defineProject } from 'vitest/config';

// The examples run as subprocesses against the built packages (CI builds before it tests), so they
// cannot rot.
export default defineProject({
  test: { name: 'examples', include: ['**/*.test.ts'], testTimeout: 180_000, hookTimeout: 180_000 },
});
