import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Every page is a React.lazy chunk (src/app/router.tsx); the entry holds only the shell the
// homepage needs, so admin and console screens never load on the first route.
export default defineConfig({
  plugins: [react()],
  server: {
    proxy: { '/api': 'http://localhost:8080' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 700,
  },
});
