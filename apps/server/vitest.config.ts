import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    // Each file opens its own database; PGlite start-up is slow, so allow for it.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Files share one module graph per worker: each still opens its own database, and nothing
    // keeps state in a module. Re-importing the server and PGlite for every file was a third of
    // the suite's time (import 218 s of 961 s in CI), and cold JIT most of the rest.
    isolate: false,
  },
});
