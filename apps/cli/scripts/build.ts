/**
 * npm run build -w @gpu/cli (and `npm pack`, through prepack): the CLI as one ES module,
 * apps/cli/dist/gpu.js, that plain `node` runs outside the monorepo. Our code and the plain
 * constants it takes from @gpu/shared are bundled; commander stays the only dependency.
 */
import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const cliRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_ENTRY = path.join(cliRoot, 'dist/gpu.js');

export async function buildCli(outfile = CLI_ENTRY) {
  const result = await build({
    entryPoints: [path.join(cliRoot, 'src/main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    external: ['commander'],
    write: false,
    logLevel: 'warning',
  });
  const code = result.outputFiles[0]?.contents;
  if (!code) throw new Error('esbuild wrote nothing');
  // Written beside and renamed over: a test or `npm pack` running at the same time never reads
  // half a file.
  mkdirSync(path.dirname(outfile), { recursive: true });
  const tmp = `${outfile}.${process.pid}.tmp`;
  writeFileSync(tmp, code);
  chmodSync(tmp, 0o755);
  renameSync(tmp, outfile);
  return { outfile, bytes: code.byteLength };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { bytes } = await buildCli();
  // On stderr: `npm pack --json` (prepack runs this) keeps stdout for its JSON.
  console.error(`cli built: apps/cli/dist/gpu.js (${(bytes / 1024).toFixed(0)} kB)`);
}
