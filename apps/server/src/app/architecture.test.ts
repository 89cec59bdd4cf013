import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLayers } from '../../scripts/check-layers.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const serverSrc = path.join(repoRoot, 'apps/server/src');

/** A small tree with one breach of each rule, written fresh for the test. */
function fixture(files: Record<string, string>) {
  const root = mkdtempSync(path.join(tmpdir(), 'layers-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

describe('architecture checks', () => {
  it('the tree passes the layer check', () => {
    expect(checkLayers(serverSrc)).toEqual([]);
  });

  it('reports SQL outside repositories, transactions in routes and routes importing the database', () => {
    const root = fixture({
      'modules/x/x.repository.ts': 'export const all = (db) => db.select().from(t);\n',
      'modules/x/x.usecases.ts':
        'export const run = (deps) => deps.db.transaction(async (tx) => {\n  await tx\n    .update(t).set({});\n});\n',
      'modules/x/x.routes.ts':
        "import { eq } from 'drizzle-orm';\nexport const r = (db) => db.transaction(async () => {});\n",
      'modules/x/x.models.ts': 'export const n = (db) => db.$count(t);\n',
      'modules/x/x.test.ts': 'await db.delete(t);\n',
      'modules/x/drivers/fake-driver.ts': 'export const start = (db) => db.transaction(async () => {});\n',
      'modules/x/clean.ts': 'export const clean = 1;\n',
    });
    roots.push(root);
    const found = checkLayers(root);
    expect(found.map((p) => `${p.file}:${p.line} ${p.rule}`).sort()).toEqual([
      'modules/x/drivers/fake-driver.ts:1 transaction-outside-usecase',
      'modules/x/x.models.ts:1 sql-outside-repository',
      'modules/x/x.routes.ts:1 route-imports-database',
      'modules/x/x.routes.ts:2 transaction-outside-usecase',
      'modules/x/x.usecases.ts:2 sql-outside-repository',
    ]);
  });

  it('lint fails on an import cycle, type-only imports included', () => {
    // Inside apps/server so the repository's biome.json (and its cycle rule) applies.
    const dir = mkdtempSync(path.join(serverSrc, 'cycle-fixture-'));
    roots.push(dir);
    writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b.ts';\nexport type A = { b: B };\n");
    writeFileSync(path.join(dir, 'b.ts'), "import type { A } from './a.ts';\nexport type B = { a?: A };\n");
    const run = () =>
      execFileSync(path.join(repoRoot, 'node_modules/.bin/biome'), ['lint', '--vcs-enabled=false', dir], {
        cwd: repoRoot,
        encoding: 'utf8',
        stdio: 'pipe',
      });
    let output = '';
    try {
      run();
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      output = `${e.stdout ?? ''}${e.stderr ?? ''}`;
    }
    expect(output).toContain('noImportCycles');
  });
});
