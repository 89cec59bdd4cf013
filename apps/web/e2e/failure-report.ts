import path from 'node:path';
import { afterEach } from 'vitest';
import { ARTIFACTS } from './env';
import { openBrowsers, pageTrouble } from './helpers';

// When a browser test fails, what its pages showed: a screenshot of each open page in
// artifacts/failures, and its address and visible text in the log (CI keeps only the log).
afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail') return;
  const name = ctx.task.name.replace(/[^\w\u4e00-\u9fff-]+/g, '-').slice(0, 80);
  let n = 0;
  for (const browser of openBrowsers) {
    for (const context of browser.contexts()) {
      for (const page of context.pages()) {
        n += 1;
        const file = path.join(ARTIFACTS, 'failures', `${name}-${n}.png`);
        await page.screenshot({ path: file, timeout: 5_000 }).catch(() => undefined);
        const text = await page
          .locator('body')
          // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what was seen
          .innerText({ timeout: 5_000 })
          .catch((e: Error) => `(no text: ${e.message})`);
        const trouble = pageTrouble.get(page) ?? [];
        console.log(
          `[failure] page ${n} of "${ctx.task.name}": ${page.url()}\n${text.replace(/\n+/g, ' | ').slice(0, 1500)}\n(screenshot ${file})`,
        );
        console.log(`[failure] page ${n} trouble: ${trouble.length ? trouble.join(' || ') : 'none seen'}`);
      }
    }
  }
});
