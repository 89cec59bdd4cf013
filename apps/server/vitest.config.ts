import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    // Each file opens its own database; PGlite start-up is slow, so allow for it.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
