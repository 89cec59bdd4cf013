import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkBoundaries, MAX_LINES } from '../../scripts/check-boundaries.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverSrc = path.resolve(here, '..');

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function fixture(files: Record<string, string>) {
  const root = mkdtempSync(path.join(tmpdir(), 'boundaries-'));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

const found = (root: string) =>
  checkBoundaries(root)
    .map((p) => `${p.file}:${p.line} ${p.rule}`)
    .sort();

describe('module boundaries', () => {
  it('the tree has no breach', () => {
    expect(checkBoundaries(serverSrc).map((p) => `${p.file}:${p.line} ${p.rule} ${p.text}`)).toEqual([]);
  });

  it('reports platform importing up, modules importing app, and imports past an index', () => {
    const root = fixture({
      'platform/db.ts': "import { x } from '../modules/a/index.ts';\nimport { c } from '../app/config.ts';\n",
      'modules/a/index.ts':
        "export { b } from '../b/b.usecases.ts';\nexport { t } from '../b/b.tables.ts';\n",
      'modules/a/a.routes.ts':
        "import type { Container } from '../../app/types.ts';\nimport { b } from '../b/index.ts';\n",
      'modules/b/b.usecases.ts': 'export const b = 1;\n',
      'modules/b/b.tables.ts': 'export const t = 1;\n',
      'modules/b/index.ts': "export * from './b.usecases.ts';\n",
      'modules/b/b.test.ts': "import { a } from '../a/a.routes.ts';\nimport '../../app/server.ts';\n",
      'test/app.ts': "import '../app/server.ts';\n",
    });
    expect(found(root)).toEqual([
      'modules/a/a.routes.ts:1 module-imports-app',
      'modules/a/index.ts:1 module-internal-import',
      'modules/b/b.test.ts:2 module-imports-app',
      'platform/db.ts:1 platform-imports-up',
      'platform/db.ts:2 platform-imports-up',
    ]);
  });

  it('reports a cycle between module folders, through tables files too', () => {
    const root = fixture({
      'modules/a/index.ts': "import { t } from '../b/b.tables.ts';\nexport const a = t;\n",
      'modules/b/b.tables.ts': 'export const t = 1;\n',
      'modules/b/index.ts': "import { c } from '../c/index.ts';\nexport const b = c;\n",
      'modules/c/index.ts': "import { a } from '../a/index.ts';\nexport const c = a;\n",
      'modules/d/index.ts': "import { a } from '../a/index.ts';\nexport const d = a;\n",
    });
    const problems = checkBoundaries(root);
    expect(problems.map((p) => p.rule)).toEqual(['module-cycle']);
    expect(problems[0]?.text).toMatch(/^a ⇄ b ⇄ c \(/);
  });

  it('reports a file over the line limit, tests included', () => {
    const long = 'export const x = 1;\n'.repeat(MAX_LINES + 1);
    const root = fixture({ 'modules/a/a.test.ts': long, 'modules/a/ok.ts': 'x\n'.repeat(MAX_LINES) });
    expect(found(root)).toEqual([`modules/a/a.test.ts:${MAX_LINES + 1} file-too-long`]);
  });
});
