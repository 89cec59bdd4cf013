/**
 * npm run build -w @gpu/server: the server as one ES module, apps/server/dist/main.js, that
 * plain `node` runs (no TypeScript loader in production), and next to it the xlsx export's
 * worker thread, dist/xlsx-worker.js (bills.xlsx-thread.ts starts it by that name). Our code and @gpu/shared (TypeScript
 * source) are bundled; every other package stays in node_modules (native argon2, PGlite's
 * WebAssembly files and pino's transports load files next to themselves).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const packagesStayExternal: Plugin = {
  name: 'packages-stay-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@gpu/shared') ? undefined : { path: args.path, external: true },
    );
  },
};

const started = performance.now();
const result = await build({
  entryPoints: {
    main: path.join(serverRoot, 'src/main.ts'),
    'xlsx-worker': path.join(serverRoot, 'src/modules/billing/bills/bills.xlsx-worker.ts'),
  },
  outdir: path.join(serverRoot, 'dist'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // Stack traces name our functions (the logs are read by people).
  keepNames: true,
  plugins: [packagesStayExternal],
  metafile: true,
  logLevel: 'warning',
});
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(
  `server built: apps/server/dist/main.js and xlsx-worker.js (${(bytes / 1024).toFixed(0)} kB with source map, ${Math.round(performance.now() - started)} ms)`,
);
