/**
 * The bundle budget, run after `npm run build` (npm run test:e2e, CI): for the entry and every
 * lazy route chunk, the gzip size of the JavaScript and CSS it loads (the chunk and everything it
 * imports statically, from dist/.vite/manifest.json), against bundle-budget.json. The first
 * route is the entry plus the homepage chunk: what a visitor's browser fetches for `/`.
 * Fails (exit 1) when any figure is over its budget or a route chunk has no budget.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
}

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(webRoot, 'dist');
const manifest: Record<string, ManifestChunk> = JSON.parse(
  readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'),
);
const budget: { firstRouteKb: number; entryKb: number; routes: Record<string, number> } = JSON.parse(
  readFileSync(path.join(webRoot, 'bundle-budget.json'), 'utf8'),
);

const gzipCache = new Map<string, number>();
const gz = (file: string) => {
  let n = gzipCache.get(file);
  if (n === undefined) {
    n = gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
    gzipCache.set(file, n);
  }
  return n;
};

/** Every file a chunk loads before it runs: itself, its static imports (transitively), their CSS. */
function closure(keys: string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const c = manifest[key];
    if (!c) throw new Error(`manifest has no ${key}`);
    files.add(c.file);
    for (const css of c.css ?? []) files.add(css);
    for (const i of c.imports ?? []) visit(i);
  };
  for (const k of keys) visit(k);
  return files;
}
const kb = (files: Iterable<string>) => [...files].reduce((n, f) => n + gz(f), 0) / 1024;

const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
if (!entryKey) throw new Error('no entry chunk in the manifest');
const entryFiles = closure([entryKey]);
/** A route chunk's name in the budget: its source path from apps/web, e.g. src/features/home/pages/HomePage.tsx. */
const routeKeys = Object.keys(manifest).filter((k) => manifest[k]?.isDynamicEntry && k.startsWith('src/'));
const homeKey = routeKeys.find((k) => k.endsWith('/HomePage.tsx'));
if (!homeKey) throw new Error('no HomePage chunk in the manifest');

const rows: { name: string; kb: number; budget: number | undefined }[] = [
  {
    name: 'first route (/: entry + HomePage)',
    kb: kb(closure([entryKey, homeKey])),
    budget: budget.firstRouteKb,
  },
  { name: 'entry', kb: kb(entryFiles), budget: budget.entryKb },
];
for (const key of routeKeys.sort()) {
  // What navigating to the route adds on top of the entry the browser already has.
  const extra = [...closure([key])].filter((f) => !entryFiles.has(f));
  rows.push({ name: key, kb: kb(extra), budget: budget.routes[key] });
}

let failed = 0;
console.log(
  `${'chunk (gzip, with its static imports)'.padEnd(64)} ${'kB'.padStart(7)} ${'budget'.padStart(7)}`,
);
for (const r of rows) {
  const over = r.budget === undefined || r.kb > r.budget;
  if (over) failed++;
  const mark = r.budget === undefined ? '  NO BUDGET' : over ? '  OVER' : '';
  console.log(
    `${r.name.padEnd(64)} ${r.kb.toFixed(1).padStart(7)} ${String(r.budget ?? '-').padStart(7)}${mark}`,
  );
}
for (const key of Object.keys(budget.routes)) {
  if (!routeKeys.includes(key))
    console.log(`(budget for ${key}, which is no longer a route chunk: remove it)`);
}
if (failed > 0) {
  console.error(`\nbundle budget: ${failed} over budget or unbudgeted (apps/web/bundle-budget.json)`);
  process.exit(1);
}
console.log('\nbundle budget: ok');
