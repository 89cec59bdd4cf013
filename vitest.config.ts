import { defineConfig } from 'vitest/config';

// One runner for every workspace; the browser tests have their own config (apps/web/e2e).
export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/server', 'apps/web', 'apps/cli'],
  },
});
