import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { ARTIFACTS } from './env';
import { seedSession, siteUrl } from './helpers';

/** A context at `viewport`, optionally signed in (user and/or admin). */
export async function openContext(
  browser: Browser,
  viewport: { width: number; height: number },
  session: Parameters<typeof seedSession>[1] = {},
) {
  const context = await browser.newContext({ viewport, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  await seedSession(context, session);
  return context;
}

export async function visit(context: BrowserContext, route: string, host = 'localhost'): Promise<Page> {
  const page = await context.newPage();
  await page.goto(siteUrl(host, route));
  await page.waitForLoadState('networkidle');
  return page;
}

/** A full-page screenshot from the top, once toasts are gone and transitions have settled. */
export async function shot(page: Page, name: string, fullPage = true) {
  await page
    .locator('.ant-message-notice')
    .first()
    .waitFor({ state: 'detached', timeout: 6_000 })
    .catch(() => {});
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage });
}

/** Nothing sticks out sideways (no horizontal page scroll). */
export async function expectNoSidewaysScroll(page: Page) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(width);
}

/** The texts of the toasts showing now. */
export const toast = (page: Page, text: string) =>
  page.locator('.ant-message-notice', { hasText: text }).waitFor();
