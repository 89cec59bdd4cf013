import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Browser tests: Chromium (playwright-core) against the real server serving the built SPA.
// Run from the repository root with `npm run test:e2e` (it builds apps/web first).
export default defineConfig({
  test: {
    name: 'web-e2e',
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['**/*.e2e.test.ts'],
    globalSetup: ['./global-setup.ts'],
    // On failure: a screenshot, the address and the text of every open page.
    setupFiles: ['./failure-report.ts'],
    // One browser at a time on small machines; each file launches its own.
    fileParallelism: false,
    testTimeout: 60_000,
    // expect.poll's own default is 1 s: a write, its answer and the screen's refetch take longer
    // than that on a two-core CI machine running the unit lane beside this one.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 120_000,
  },
});
