import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Every page is a React.lazy chunk (src/app/router.tsx); the entry holds only the shell the
// homepage needs, so admin and console screens never load on the first route.
export default defineConfig({
  plugins: [react()],
  server: {
    // The API server of `npm run dev` (PORT 8080); API_PROXY points elsewhere.
    proxy: { '/api': process.env.API_PROXY ?? 'http://localhost:8080' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 700,
    // dist/.vite/manifest.json: which chunks each route loads (scripts/check-bundle.ts budgets them).
    manifest: true,
  },
});
