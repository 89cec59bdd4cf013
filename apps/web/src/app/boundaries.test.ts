import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkWebBoundaries, type Problem } from '../../scripts/check-boundaries';

// The web's layering (scripts/check-boundaries.ts, run by `npm run lint`): the real tree keeps
// it, and each kind of breach is reported where it happens.

const show = (problems: Problem[]) => problems.map((p) => `${p.file}:${p.line} ${p.rule}: ${p.text}`).sort();

describe('web module boundaries', () => {
  it('holds for apps/web/src', () => {
    const src = path.resolve(import.meta.dirname, '..');
    expect(show(checkWebBoundaries(src))).toEqual([]);
  });

  describe('a tree with planted breaches', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'web-boundaries-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const files: Record<string, string> = {
      'locales/zh-CN.ts': `export const t = {};\n`,
      'lib/ok.ts': `import { t } from '../locales/zh-CN';\nexport const ok = t;\n`,
      'lib/bad.ts': `import { a } from '../features/alpha';\nexport const bad = a;\n`,
      'components/Fine.tsx': `import { ok } from '../lib/ok';\nimport logo from '../assets/logo.svg';\nexport const Fine = [ok, logo];\n`,
      'components/Widget.tsx': `import { b } from '../features/beta';\nexport const Widget = b;\n`,
      'features/alpha/index.ts': `export { a } from './a';\n`,
      // Reaches into beta past its index (and so makes alpha -> beta).
      'features/alpha/a.ts': `import { internal } from '../beta/internal';\nexport const a = internal;\n`,
      'features/alpha/routes.ts': `import { t } from '../../locales/zh-CN';\nimport { PATHS } from '../../app/paths';\nexport const r = [t, PATHS];\n`,
      'features/beta/index.ts': `export { b } from './internal';\n`,
      // Through alpha's index, which is allowed, but closes the cycle alpha -> beta -> alpha.
      'features/beta/internal.ts': `import { a } from '../alpha';\nexport const internal = 1;\nexport const b = a;\n`,
      'features/gamma/g.ts': [
        `import { b } from '../beta';`,
        `import type { B } from '../beta/index.ts';`,
        `// A comment naming import('../beta/internal') is not an import.`,
        `export const g = () => import('../beta/index');`,
        ``,
      ].join('\n'),
      'features/gamma/pages/GammaPage.tsx': `import { g } from '../g';\nexport default g;\n`,
      'features/gamma/g.test.ts': `import { internal } from '../beta/internal';\nimport { stub } from '../../test/stub';\n`,
      'app/paths.ts': `export const PATHS = {};\n`,
      'app/router.tsx': [
        `import { lazy } from 'react';`,
        `import { b } from '../features/beta';`,
        `import { a } from '../features/alpha/a';`,
        `const GammaPage = lazy(() => import('../features/gamma/pages/GammaPage'));`,
        `const alpha = () => import('../features/alpha/a');`,
        `import StaticPage from '../features/gamma/pages/GammaPage';`,
        ``,
      ].join('\n'),
      'app/shell.tsx': `import { stub } from '../test/stub';\nexport const shell = stub;\n`,
      'test/stub.ts': `import { internal } from '../features/beta/internal';\nexport const stub = internal;\n`,
      'main.tsx': `import './app/router';\nimport './styles/global.css';\n`,
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    const problems = show(checkWebBoundaries(root));

    it('reports a lower layer importing a feature: lib and components', () => {
      expect(problems).toContain('lib/bad.ts:1 layer: ../features/alpha');
      expect(problems).toContain('components/Widget.tsx:1 layer: ../features/beta');
    });

    it('reports a feature importing app, and app importing test helpers', () => {
      expect(problems).toContain('features/alpha/routes.ts:2 layer: ../../app/paths');
      expect(problems).toContain('app/shell.tsx:1 layer: ../test/stub');
    });

    it("reports a feature or app importing another feature's internal file, lazily or not", () => {
      expect(problems).toContain('features/alpha/a.ts:1 feature-internal: ../beta/internal');
      expect(problems).toContain('app/router.tsx:3 feature-internal: ../features/alpha/a');
      expect(problems).toContain('app/router.tsx:5 feature-internal: ../features/alpha/a');
      // A route page is lazy or not imported at all: statically it would join the entry chunk.
      expect(problems).toContain('app/router.tsx:6 feature-internal: ../features/gamma/pages/GammaPage');
    });

    it('reports a cycle between features, even through index files', () => {
      expect(problems).toContain(
        'features/alpha/a.ts:1 feature-cycle: features/alpha -> features/beta -> features/alpha',
      );
    });

    it('reports nothing else: index imports, lazy route pages, lower layers, tests and comments pass', () => {
      expect(problems).toHaveLength(9);
    });
  });
});
