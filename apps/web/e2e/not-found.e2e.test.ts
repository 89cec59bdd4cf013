import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, HOSTS, launchBrowser, MOBILE, rgb, tenantConfig } from './helpers';
import { expectNoSidewaysScroll, openContext, shot, visit } from './screen-helpers';

// The 404 page wears each tenant's own colour, at both sizes.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe('the 404 page', () => {
  for (const host of HOSTS)
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', MOBILE],
    ] as const) {
      it(`is in ${host}'s colour at ${size} width`, async () => {
        const { theme } = await tenantConfig(host);
        const context = await openContext(browser, viewport);
        const page = await visit(context, '/no-such-page', host);
        const code = page.getByTestId('not-found-code');
        await code.waitFor();
        expect(await code.textContent()).toBe('404');
        expect(await code.evaluate((el) => getComputedStyle(el).color)).toBe(rgb(theme.primaryColor));
        const home = page.getByTestId('not-found-home');
        expect(await home.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
          rgb(theme.primaryColor),
        );
        expect(await page.getByText('抱歉，您访问的页面不存在').count()).toBe(1);
        await expectNoSidewaysScroll(page);
        await shot(page, `not-found-${host}-${size}`);
        await context.close();
      });
    }
});
