/**
 * The web's module boundaries (docs/decisions.md, Web), checked on every `npm run lint`. Layers,
 * lowest first: locales/; lib/ (api client, session, feedback, theme, app events, routing
 * helpers); components/ (widgets shared by several features); features/<name>/; app/ (router,
 * layouts, providers; main.tsx counts as app). assets/ and styles/ are plain resources anyone uses.
 * - layer: a folder imports only its own layer and those below: lib/ no components/, features/
 *   or app/; components/ no features/ or app/; a feature never app/; nothing outside the tests
 *   imports src/test/.
 * - feature-internal: another feature is imported only through its index.ts
 *   (`features/<name>` or `features/<name>/index`). app/ follows the same rule, and may also
 *   lazy-load a route page: `import('…/features/<name>/pages/<Page>')`, one chunk per page.
 * - feature-cycle: no cycle between feature folders (A -> B -> A through index files is one too).
 * Tests (*.test.ts[x]) and test helpers (src/test/, test-*.ts[x]) may import anything. Import
 * cycles between files are Biome's `noImportCycles` (biome.json). Pattern-based like
 * apps/server/scripts/check-layers.ts: relative specifiers of `from '…'`, `import '…'` and `import('…')`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cycles } from '../../../scripts/lib/import-cycles.ts';

export interface Problem {
  file: string;
  line: number;
  rule: 'layer' | 'feature-internal' | 'feature-cycle';
  text: string;
}

type Layer = 'locales' | 'lib' | 'components' | 'feature' | 'app' | 'resource' | 'test' | 'outside';

/** What each layer may import besides other features (checked by the index rule). */
const MAY_IMPORT: Record<Layer, readonly Layer[]> = {
  locales: ['locales', 'resource'],
  lib: ['lib', 'locales', 'resource'],
  components: ['components', 'lib', 'locales', 'resource'],
  feature: ['feature', 'components', 'lib', 'locales', 'resource'],
  app: ['app', 'feature', 'components', 'lib', 'locales', 'resource'],
  resource: ['resource'],
  test: [],
  outside: [],
};

const IMPORT = /(\bimport\s*\(\s*|\bfrom\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"\n]+)\2/g;
const isTestFile = (file: string) => /(^|\/)test\/|(^|\/)test-[\w-]+\.tsx?$|\.test\.tsx?$/.test(file);

interface Place {
  layer: Layer;
  feature?: string;
}

/** The layer of a path relative to src (posix, extension optional). */
function placeOf(rel: string): Place {
  if (rel.startsWith('../') || rel === '..') return { layer: 'outside' };
  const [top = '', second] = rel.split('/');
  if (top === 'features' && second) return { layer: 'feature', feature: second };
  if (top === 'lib' || top === 'components' || top === 'locales' || top === 'app' || top === 'test')
    return { layer: top };
  if (top === 'assets' || top === 'styles') return { layer: 'resource' };
  return { layer: 'app' }; // main.tsx and other top-level files
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : [],
  );
}

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;
const inComment = (text: string, index: number) =>
  /^\s*(\/\/|\/\*|\*)/.test(text.slice(text.lastIndexOf('\n', index) + 1, index));
const withoutExtension = (rel: string) => rel.replace(/\.(tsx?|jsx?)$/, '');

interface Edge {
  file: string;
  line: number;
}

/** One cycle through `start` inside `members` (breadth first: the shortest), as its edges. */
function cycleThrough(start: string, members: Set<string>, edges: Map<string, Map<string, Edge>>) {
  const from = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const loop = [start];
        for (let at: string | undefined = node; at !== start && at; at = from.get(at)) loop.splice(1, 0, at);
        return [...loop, start];
      }
      if (!from.has(next)) {
        from.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

/** Every breach of the web's boundaries under `root` (apps/web/src; paths relative to it). */
export function checkWebBoundaries(root: string): Problem[] {
  const problems: Problem[] = [];
  const featureEdges = new Map<string, Map<string, Edge>>();
  for (const abs of walk(root).sort()) {
    const file = path.relative(root, abs).split(path.sep).join('/');
    if (isTestFile(file)) continue;
    const from = placeOf(file);
    const text = readFileSync(abs, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      if (inComment(text, m.index)) continue;
      const spec = m[3] as string;
      const dynamic = (m[1] as string).includes('(');
      const line = lineOf(text, m.index);
      const target = withoutExtension(
        path
          .relative(root, path.resolve(path.dirname(abs), spec))
          .split(path.sep)
          .join('/'),
      );
      const to = placeOf(target);
      const report = (rule: Problem['rule']) => problems.push({ file, line, rule, text: spec });
      if (!MAY_IMPORT[from.layer].includes(to.layer)) {
        report('layer');
        continue;
      }
      if (to.layer !== 'feature' || to.feature === from.feature) continue;
      const dir = `features/${to.feature}`;
      const throughIndex = target === dir || target === `${dir}/index`;
      const lazyPage = from.layer === 'app' && dynamic && new RegExp(`^${dir}/pages/[^/]+$`).test(target);
      if (!throughIndex && !lazyPage) report('feature-internal');
      if (from.layer === 'feature' && from.feature && to.feature) {
        const out = featureEdges.get(from.feature) ?? new Map<string, Edge>();
        featureEdges.set(from.feature, out);
        if (!out.has(to.feature)) out.set(to.feature, { file, line });
      }
    }
  }
  for (const component of cycles(new Map([...featureEdges].map(([k, v]) => [k, [...v.keys()]])))) {
    const loop = cycleThrough(component[0] as string, new Set(component), featureEdges);
    const first = featureEdges.get(loop[0] as string)?.get(loop[1] as string) as Edge;
    problems.push({
      ...first,
      rule: 'feature-cycle',
      text:
        loop.map((f) => `features/${f}`).join(' -> ') +
        (component.length > loop.length - 1 ? ` (one cycle among ${component.join(', ')})` : ''),
    });
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
  const problems = checkWebBoundaries(root);
  for (const p of problems) console.error(`apps/web/src/${p.file}:${p.line} ${p.rule}: ${p.text}`);
  if (problems.length > 0) {
    console.error(
      `\n${problems.length} boundary problem(s): import lower layers only, other features through their ` +
        'index.ts, and move what two features share down (components/, lib/ or the lower feature)',
    );
    process.exit(1);
  }
  console.log('web boundaries: ok');
}
