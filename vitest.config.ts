import { defineConfig } from 'vitest/config';

// Tests run from source: the `source` export condition points every package at src/.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    projects: ['packages/*', 'examples', 'test'],
  },
});
