/**
 * The layer rule of DESIGN §2, checked on every `npm run lint`:
 * - only repositories (and app/db, tables, tests and their helpers) run SQL on a db or tx;
 * - transactions are opened by usecases, tasks and the ledger, never by routes, models,
 *   plugins or drivers;
 * - routes do not import drizzle-orm or the database client.
 * Import cycles are Biome's `noImportCycles` (biome.json). Pattern-based on purpose: cheap,
 * and our code names its handles `db`/`tx`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Problem {
  file: string;
  line: number;
  rule: 'sql-outside-repository' | 'transaction-outside-usecase' | 'route-imports-database';
  text: string;
}

const SQL_CALL = /\b(?:db|tx)\s*\.\s*(?:select|selectDistinct|insert|update|delete|execute|\$count)\s*\(/g;
const TRANSACTION = /\b(?:db|tx)\s*\.\s*transaction\s*\(/g;
const ROUTE_DB_IMPORT = /^import\s[^;]*from\s+'(?:drizzle-orm[^']*|[./]*app\/db\/client\.ts)'/gm;

/** Files whose job is SQL: repositories, the db plumbing, table definitions, tests and their helpers. */
const mayRunSql = (f: string) =>
  /\.repository\.ts$|(^|\/)platform\/db\/|(^|\/)test\/|\.tables\.ts$|\.test\.ts$|\.test-helpers\.ts$|\.test-suite\.ts$/.test(
    f,
  );
const mayOpenTransactions = (f: string) =>
  mayRunSql(f) || /\.usecases\.ts$|\.task\.ts$|(^|\/)tasks\/|(^|\/)ledger\.ts$/.test(f);
const isRoute = (f: string) => /\.routes\.ts$/.test(f);

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** Every breach of the layer rule under `root` (paths relative to it). */
export function checkLayers(root: string): Problem[] {
  const problems: Problem[] = [];
  for (const abs of walk(root)) {
    const file = path.relative(root, abs).split(path.sep).join('/');
    const text = readFileSync(abs, 'utf8');
    const report = (rule: Problem['rule'], re: RegExp) => {
      for (const m of text.matchAll(re))
        problems.push({ file, line: lineOf(text, m.index), rule, text: m[0].replace(/\s+/g, '') });
    };
    if (!mayRunSql(file)) report('sql-outside-repository', SQL_CALL);
    if (!mayOpenTransactions(file)) report('transaction-outside-usecase', TRANSACTION);
    if (isRoute(file)) report('route-imports-database', ROUTE_DB_IMPORT);
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
  const problems = checkLayers(root);
  for (const p of problems) console.error(`apps/server/src/${p.file}:${p.line} ${p.rule}: ${p.text}`);
  if (problems.length > 0) {
    console.error(`\n${problems.length} layer problem(s): move the SQL into the feature's *.repository.ts`);
    process.exit(1);
  }
  console.log('layers: ok');
}
