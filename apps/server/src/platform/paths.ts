import path from 'node:path';
import { fileURLToPath } from 'node:url';

// This file runs from two places: as source (apps/server/src/app/paths.ts, under tsx and the
// tests) and bundled into apps/server/dist/main.js (npm start, the Docker image).
const here = path.dirname(fileURLToPath(import.meta.url));

/** apps/server, whichever way we run. */
export const SERVER_ROOT =
  path.basename(here) === 'dist' ? path.resolve(here, '..') : path.resolve(here, '../..');

/** The repository root, so `./data` means the same folder whatever the working directory. */
export const REPO_ROOT = path.resolve(SERVER_ROOT, '../..');
