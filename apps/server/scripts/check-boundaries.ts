/**
 * The module boundaries of DESIGN §2, checked on every `npm run lint`:
 * - `platform/` imports no module and nothing of `app/`;
 * - a module never imports `app/`;
 * - module A imports module B only through B's `index.ts` or B's tables file (`B/*.tables.ts`,
 *   for foreign keys and read models);
 * - no cycle between module folders (tables imports count);
 * - no file over MAX_LINES lines (generated migrations live outside src/).
 * Tests and test helpers beside the code are white-box on purpose: they may reach any file of
 * any module, but not up into app/ (they take the app from src/test/) and not be long.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cycles } from '../../../scripts/lib/import-cycles.ts';

export const MAX_LINES = 300;

export interface BoundaryProblem {
  file: string;
  line: number;
  rule:
    | 'platform-imports-up'
    | 'module-imports-app'
    | 'module-internal-import'
    | 'module-cycle'
    | 'file-too-long';
  text: string;
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)|(?:^|\n)\s*import\s*'(\.[^']+)'/g;

/** Files that may reach anything: tests, their helpers and the shared test kit. */
export const isTestFile = (f: string) =>
  /\.test\.ts$|\.test-helpers\.ts$|\.test-suite\.ts$/.test(f) || /(^|\/)test\//.test(f);

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : [],
  );
}

/** `modules/<name>` of a path under the root, else null. */
const moduleOf = (f: string) => (/^modules\/([^/]+)\//.exec(f) ?? [])[1] ?? null;
/** What another module may import of B: its index or a tables file at its root. */
const isPublicFace = (target: string) => /^modules\/[^/]+\/(index|[^/]+\.tables)\.ts$/.test(target);

interface ImportEdge {
  from: string;
  to: string;
  line: number;
  spec: string;
}

export function importsOf(root: string, file: string, text: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec) continue;
    const to = path
      .relative(root, path.resolve(path.dirname(path.join(root, file)), spec))
      .split(path.sep)
      .join('/');
    const at = m.index + m[0].indexOf(spec);
    edges.push({ from: file, to, line: text.slice(0, at).split('\n').length, spec });
  }
  return edges;
}

/** Every breach of the boundaries under `root` (apps/server/src; paths relative to it). */
export function checkBoundaries(root: string): BoundaryProblem[] {
  const problems: BoundaryProblem[] = [];
  const moduleGraph = new Map<string, Set<string>>();
  const arrow = new Map<string, ImportEdge>();
  for (const abs of walk(root).sort()) {
    const file = path.relative(root, abs).split(path.sep).join('/');
    const text = readFileSync(abs, 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > MAX_LINES)
      problems.push({ file, line: MAX_LINES + 1, rule: 'file-too-long', text: `${lines} lines` });
    const test = isTestFile(file);
    const from = moduleOf(file);
    for (const edge of importsOf(root, file, text)) {
      const report = (rule: BoundaryProblem['rule']) =>
        problems.push({ file, line: edge.line, rule, text: edge.spec });
      const to = moduleOf(edge.to);
      if (file.startsWith('platform/') && (to || edge.to.startsWith('app/'))) report('platform-imports-up');
      if (from && edge.to.startsWith('app/')) report('module-imports-app');
      if (test) continue;
      if (from && to && from !== to) {
        if (!isPublicFace(edge.to)) report('module-internal-import');
        if (!moduleGraph.has(from)) moduleGraph.set(from, new Set());
        moduleGraph.get(from)?.add(to);
        if (!arrow.has(`${from}>${to}`)) arrow.set(`${from}>${to}`, edge);
      }
    }
  }
  for (const scc of cycles(moduleGraph)) {
    // Named by one arrow inside the cycle, so the report points at a line to change.
    const inside = [...arrow.entries()].filter(([k]) => {
      const [a, b] = k.split('>');
      return scc.includes(a as string) && scc.includes(b as string);
    });
    const [, edge] = inside[0] as [string, ImportEdge];
    problems.push({
      file: edge.from,
      line: edge.line,
      rule: 'module-cycle',
      text: `${scc.join(' ⇄ ')} (${inside.map(([k]) => k.replace('>', '→')).join(', ')})`,
    });
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
  const problems = checkBoundaries(root);
  for (const p of problems) console.error(`apps/server/src/${p.file}:${p.line} ${p.rule}: ${p.text}`);
  if (problems.length > 0) {
    console.error(`\n${problems.length} boundary problem(s): see docs/decisions.md, "Foundation and layout"`);
    process.exit(1);
  }
  console.log('boundaries: ok');
}
