import type { MarketList } from '@gpu/shared';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, DESKTOP, launchBrowser, MOBILE, registerUser } from './helpers';
import { openContext, shot, visit } from './screen-helpers';

// The phone layout fixes of issue 13: the widget, the hero title, chip rows, the footer QR, and
// the market's model choices.

let browser: Browser;
let session: Awaited<ReturnType<typeof registerUser>>;
beforeAll(async () => {
  browser = await launchBrowser();
  session = await registerUser();
});
afterAll(() => browser?.close());

/** The widget's box: on phones a slim tab against the right edge. */
const widgetBox = async (page: Page) => {
  const box = await page.getByTestId('customer-service').boundingBox();
  if (!box) throw new Error('no customer-service widget');
  return box;
};

describe('customer-service widget at 390 px', () => {
  for (const route of ['/', '/recharge', '/market', '/subscribe?skuGpuId=gpu-1&billingType=hourly']) {
    it(`is an edge tab on ${route} that opens the two entries`, async () => {
      const context = await openContext(browser, MOBILE, { token: session.accessToken, user: session.user });
      const page = await visit(context, route);
      const box = await widgetBox(page);
      expect(box.width).toBeLessThanOrEqual(30);
      expect(Math.round(box.x + box.width)).toBe(MOBILE.width);
      await page.getByTestId('customer-service-tab').click();
      await page.getByRole('button', { name: '关注官方公众号' }).waitFor();
      expect((await widgetBox(page)).width).toBeGreaterThan(80);
      await page.getByTestId('customer-service-tab').click();
      expect((await widgetBox(page)).width).toBeLessThanOrEqual(30);
      await shot(page, `phone-${route === '/' ? 'home' : route.slice(1).replace(/\?.*/, '')}`);
      await context.close();
    });
  }

  it('stays the full widget at 1440 px', async () => {
    const context = await openContext(browser, DESKTOP);
    const page = await visit(context, '/');
    expect(await page.getByTestId('customer-service-tab').isVisible()).toBe(false);
    await page.getByRole('button', { name: '关注官方公众号' }).waitFor();
    await context.close();
  });
});

describe('homepage at 390 px', () => {
  it('breaks the hero title between words only', async () => {
    const context = await openContext(browser, MOBILE);
    // The second demo tenant's title, '极光智算 · 企业级 GPU 云', broke as '企 / 业级'.
    const page = await visit(context, '/', '127.0.0.1');
    const title = page.getByTestId('hero-title');
    const text = (await title.textContent()) ?? '';
    const word = '企业级';
    expect(text).toContain(word);
    // The first and last character of the word sit on one line.
    const measure = () =>
      title.evaluate((h1, w) => {
        const node = h1.firstChild as Text;
        const at = (node.textContent ?? '').indexOf(w);
        const top = (i: number) => {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          return Math.round(range.getBoundingClientRect().top);
        };
        return [top(at), top(at + w.length - 1)];
      }, word);
    const tops = await measure();
    expect(tops[0]).toBe(tops[1]);
    // The control: with the browser's default breaking the word does split here (the bug).
    await page.addStyleTag({ content: '[data-testid="hero-title"] { word-break: normal !important; }' });
    const before = await measure();
    await page.addStyleTag({ content: '[data-testid="hero-title"] { word-break: keep-all !important; }' });
    expect(before[0]).not.toBe(before[1]);
    await shot(page, 'phone-home-second-tenant');
    await context.close();
  });

  it('hides the footer QR slot when the tenant has no QR', async () => {
    const context = await openContext(browser, MOBILE);
    const page = await visit(context, '/', '127.0.0.1');
    await page.getByTestId('footer-contact').waitFor();
    expect(await page.getByTestId('footer-qr').count()).toBe(0);
    expect(await page.locator('footer img[data-placeholder]').count()).toBe(0);
    const withQr = await visit(context, '/');
    await withQr.getByTestId('footer-qr').waitFor();
    await context.close();
  });
});

describe('market at 390 px', () => {
  it('fades the edge of a chip row that scrolls, until its end is reached', async () => {
    const context = await openContext(browser, MOBILE);
    const page = await visit(context, '/market');
    const row = page.getByTestId('filter-model');
    await row.locator('label').nth(1).waitFor();
    const overflows = await row.evaluate((el) => el.scrollWidth > el.clientWidth);
    if (overflows) {
      expect(await row.getAttribute('data-scroll-more')).toBe('true');
      await row.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      await page.waitForFunction(
        () => !document.querySelector('[data-testid="filter-model"]')?.hasAttribute('data-scroll-more'),
      );
    } else {
      expect(await row.getAttribute('data-scroll-more')).toBeNull();
    }
    await shot(page, 'phone-market');
    await context.close();
  });

  it('offers only models that some shown machine has', async () => {
    const list = await api<MarketList>('/gpu/market?page=1&size=48');
    expect(list.gpuModels.length).toBeGreaterThan(0);
    for (const model of list.gpuModels) {
      const only = await api<MarketList>(`/gpu/market?page=1&size=12&gpuModel=${encodeURIComponent(model)}`);
      expect(only.total, model).toBeGreaterThan(0);
    }
  });
});
