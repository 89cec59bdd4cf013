import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { DEFAULT_TENANT_CONFIG, type TenantConfig } from '@gpu/shared';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, WEB_DIST } from './env';
import { DESKTOP, HOSTS, launchBrowser, MOBILE, rgb, siteUrl, tenantConfig, titled } from './helpers';

let browser: Browser;
const configs = new Map<string, TenantConfig>();

beforeAll(async () => {
  browser = await launchBrowser();
  for (const host of HOSTS) configs.set(host, await tenantConfig(host));
});
afterAll(() => browser?.close());

async function openHome(host: string, viewport: { width: number; height: number } = DESKTOP) {
  const page = await browser.newPage({ viewport });
  await page.goto(siteUrl(host, '/'));
  await page.getByTestId('hero-title').waitFor();
  return page;
}

/** A computed style once the element's transitions have ended (the theme colour fades in). */
const style = (page: Page, testId: string, prop: string) =>
  page.getByTestId(testId).evaluate(async (el, p) => {
    await Promise.all(el.getAnimations().map((a) => a.finished.catch(() => undefined)));
    return getComputedStyle(el).getPropertyValue(p);
  }, prop);

describe('homepage per tenant', () => {
  it('serves two different demo tenants', () => {
    const [a, b] = HOSTS.map((h) => configs.get(h) as TenantConfig);
    expect(a?.tenantName).not.toBe(b?.tenantName);
    expect(a?.theme.primaryColor).not.toBe(b?.theme.primaryColor);
    expect(a?.homepage.title).not.toBe(b?.homepage.title);
  });

  for (const host of HOSTS) {
    it(`renders ${host}'s tenant: texts, colours, title, favicon, footer`, async () => {
      const cfg = configs.get(host) as TenantConfig;
      const page = await openHome(host);

      expect(await page.getByTestId('hero-title').textContent()).toBe(cfg.homepage.title);
      expect(await page.getByTestId('hero-subtitle').textContent()).toBe(cfg.homepage.subtitle);
      expect(await style(page, 'hero-title', 'color')).toBe(
        cfg.homepage.titleColor.startsWith('#')
          ? rgb(cfg.homepage.titleColor)
          : cfg.homepage.titleColor.replace(/,/g, ', '),
      );
      expect(await style(page, 'hero', 'background-image')).toContain(rgb(cfg.theme.gradientStart));
      // antd primary buttons take the tenant's primary colour
      expect(await style(page, 'nav-register', 'background-color')).toBe(rgb(cfg.theme.primaryColor));
      expect(await style(page, 'cta-use-now', 'background-color')).toBe(rgb(cfg.theme.primaryColor));
      expect(await page.getByTestId('tenant-name').first().textContent()).toBe(cfg.tenantName);
      expect(await page.title()).toBe(cfg.tenantName);
      expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe(cfg.faviconUrl);

      const contact = [
        cfg.contact.email && `邮箱 ${cfg.contact.email}`,
        cfg.contact.phone && `电话 ${cfg.contact.phone}`,
      ]
        .filter(Boolean)
        .join(' / ');
      expect(await page.getByTestId('footer-contact').textContent()).toBe(contact || '暂无联系方式');
      const beian = page.getByTestId('beian');
      expect(await beian.textContent()).toBe(cfg.footer.beianNumber);
      expect(await beian.getAttribute('href')).toBe('https://beian.miit.gov.cn/');
      await page.close();
    });
  }

  it('has six advantages, three service cards with enquiry links, and the call to action', async () => {
    const page = await openHome('localhost');
    expect(await page.locator('article').count()).toBe(9);
    const cards = page.getByTestId('service-card');
    expect(await cards.count()).toBe(3);
    for (let i = 0; i < 3; i++) {
      // Each card preselects its service on the enquiry form (issue 13).
      expect(await cards.nth(i).getByRole('link', { name: '立即咨询' }).getAttribute('href')).toMatch(
        /^\/contact\?product=/,
      );
    }
    expect(await page.getByTestId('hero-use-now').getAttribute('href')).toBe('/market');
    // logged out, Console goes to login with a redirect back
    expect(await page.getByTestId('hero-console').getAttribute('href')).toBe('/login?redirect=%2Fconsole');
    await page.getByTestId('hero-use-now').click();
    await page.waitForURL('**/market');
    await titled(page, `算力市场 - ${configs.get('localhost')?.tenantName}`);
    await page.close();
  });

  it('falls back to the default tenant config when the config cannot be loaded', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.route('**/api/tenant/config*', (route) => route.fulfill({ status: 503, body: 'down' }));
    await page.goto(siteUrl('127.0.0.1', '/'));
    await page.getByTestId('hero-title').waitFor();
    expect(await page.getByTestId('hero-title').textContent()).toBe(DEFAULT_TENANT_CONFIG.homepage.title);
    expect(await page.title()).toBe(DEFAULT_TENANT_CONFIG.tenantName);
    expect(await style(page, 'nav-register', 'background-color')).toBe(
      rgb(DEFAULT_TENANT_CONFIG.theme.primaryColor),
    );
    await page.close();
  });

  it('shows the customer-service QR popups on hover, with a placeholder for a missing image', async () => {
    for (const host of HOSTS) {
      const cfg = configs.get(host) as TenantConfig;
      const page = await openHome(host);
      const widget = page.getByTestId('customer-service');
      const popup = widget.getByRole('tooltip').first();
      expect(await popup.isVisible()).toBe(false);
      await widget.getByRole('button').first().hover();
      await popup.waitFor({ state: 'visible' });
      const img = popup.locator('img');
      await page.waitForFunction((el) => (el as HTMLImageElement).complete, await img.elementHandle());
      const placeholder = await img.getAttribute('data-placeholder');
      expect(placeholder === 'true').toBe(!cfg.footer.wechatOfficialQr);
      expect(await img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      await page.close();
    }
  });
});

describe('mobile', () => {
  it('has a hamburger dropdown and a bottom account drawer', async () => {
    const page = await openHome('localhost', MOBILE);
    expect(await page.getByTestId('nav-register').isVisible()).toBe(false);
    await page.getByTestId('nav-hamburger').click();
    const market = page.getByRole('link', { name: '轻量算力' });
    await market.first().waitFor({ state: 'visible' });
    await page.getByRole('button', { name: '账户' }).click();
    const drawer = page.locator('.ant-drawer-bottom');
    await drawer.getByRole('link', { name: '注册' }).waitFor({ state: 'visible' });
    await page.close();
  });
});

describe('first route bundle', () => {
  it('loads no console or admin code and stays small', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    const scripts: string[] = [];
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (url.pathname.endsWith('.js')) scripts.push(path.basename(url.pathname));
    });
    await page.goto(siteUrl('localhost', '/'), { waitUntil: 'networkidle' });
    expect(scripts.some((s) => /^(Admin|Console|Auth)Layout-/.test(s))).toBe(false);
    const gzip = scripts.reduce(
      (sum, s) => sum + gzipSync(readFileSync(path.join(WEB_DIST, 'assets', s))).length,
      0,
    );
    console.log(`homepage JS: ${scripts.length} files, ${(gzip / 1024).toFixed(1)} kB gzip`);
    expect(gzip).toBeLessThan(220 * 1024);
    await page.close();
  });
});

describe('screenshots', () => {
  it('saves the homepage at desktop and mobile widths', async () => {
    for (const host of HOSTS) {
      const name = host === 'localhost' ? 'default' : 'second';
      for (const [label, viewport] of [
        ['desktop', DESKTOP],
        ['mobile', MOBILE],
      ] as const) {
        const page = await openHome(host, viewport);
        await page.evaluate(() => document.fonts.ready);
        await page.screenshot({
          path: path.join(ARTIFACTS, `homepage-${name}-${label}.png`),
          fullPage: true,
        });
        await page.close();
      }
    }
  });
});
