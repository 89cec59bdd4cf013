import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'cli',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Each file starts a server on its own database (PGlite or PostgreSQL) and runs the CLI
    // as a child process many times.
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
