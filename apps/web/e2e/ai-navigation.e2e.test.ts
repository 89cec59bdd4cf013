import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, MOBILE, siteUrl } from './helpers';
import { openContext, shot } from './screen-helpers';

// /ai-navigation (embedded page with loading and fallback) and the /user placeholder (SPEC.md §2).

const DEFAULT_URL = 'https://ai-bot.cn/';
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe('AI navigation', () => {
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['mobile', MOBILE],
  ] as const) {
    it(`shows loading, then the embedded page (${name}); screenshot`, async () => {
      const context = await openContext(browser, viewport);
      // The outside site stands in locally; it answers only once released, to see the loading state.
      let release: () => void = () => {};
      const released = new Promise<void>((r) => {
        release = r;
      });
      await context.route(DEFAULT_URL, async (route) => {
        await released;
        await route.fulfill({
          contentType: 'text/html; charset=utf-8',
          body: '<html><body style="font-family:sans-serif"><h1>AI 工具导航</h1><p>示例嵌入页面</p></body></html>',
        });
      });
      const page = await context.newPage();
      await page.goto(siteUrl('localhost', '/ai-navigation'));
      await page.getByTestId('ai-nav-loading').waitFor();
      expect(await page.getByTestId('ai-nav-frame').getAttribute('src')).toBe(DEFAULT_URL);
      release();
      await page.getByTestId('ai-nav-loading').waitFor({ state: 'detached' });
      await page
        .frameLocator('[data-testid="ai-nav-frame"]')
        .locator('h1', { hasText: 'AI 工具导航' })
        .waitFor();
      expect(await page.title()).toMatch(/^AI导航 - /);
      // The viewport only: a full-page capture resizes the window, which reloads the frame.
      await shot(page, `ai-navigation-${name}`, false);
      await context.close();
    });
  }

  it('falls back to a text with retry and open links when the page never loads', async () => {
    const context = await openContext(browser, DESKTOP);
    await context.route(DEFAULT_URL, () => {
      // never answered
    });
    const page = await context.newPage();
    await page.clock.install();
    await page.goto(siteUrl('localhost', '/ai-navigation'));
    await page.getByTestId('ai-nav-loading').waitFor();
    await page.clock.fastForward(16_000);
    await page.getByTestId('ai-nav-fallback').waitFor();
    expect(await page.getByTestId('ai-nav-fallback').textContent()).toContain('AI 导航暂时无法加载');
    expect(await page.getByRole('link', { name: /在新窗口打开/ }).getAttribute('href')).toBe(DEFAULT_URL);
    await shot(page, 'ai-navigation-fallback-desktop');
    await context.close();
  });
});
