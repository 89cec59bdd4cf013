import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminLogin, api, DESKTOP, launchBrowser, MOBILE, siteUrl } from './helpers';
import { openContext, shot } from './screen-helpers';

// /ai-navigation (SPEC.md §2): the tenant's page in a frame, with loading, and a fallback when
// the page is refused (X-Frame-Options), unavailable or never loads. A frame reports none of
// these to the page, so the server checks the page; both it and the browser load it from here.

let browser: Browser;
let site: Server;
let siteBase = '';
let token = '';
/** Held pages answer once released, to see the loading state. */
const held = new Map<string, Promise<void>>();

async function setTenantPage(url: string) {
  const tenants = await api<{ id: number; code: string; config: Record<string, unknown> }[]>(
    '/admin/tenants',
    {
      token,
    },
  );
  const tenant = tenants.find((x) => x.code === 'default');
  if (!tenant) throw new Error('no default tenant');
  await api(`/admin/tenants/${tenant.id}`, {
    token,
    method: 'PUT',
    body: { config: { ...tenant.config, aiNavigationUrl: url } },
  });
}

beforeAll(async () => {
  browser = await launchBrowser();
  token = (await adminLogin()).token;
  site = createServer(async (req, res) => {
    if (req.url === '/never') return;
    await held.get(req.url ?? '');
    const deny = req.url === '/deny' ? { 'x-frame-options': 'DENY' } : {};
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...deny });
    res.end(
      '<html><body style="font-family:sans-serif"><h1>AI 工具导航</h1><p>示例嵌入页面</p></body></html>',
    );
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteBase = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await setTenantPage('');
  site?.closeAllConnections();
  site?.close();
  await browser?.close();
});

describe('AI navigation', () => {
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['mobile', MOBILE],
  ] as const) {
    it(`shows loading, then the embedded page (${name}); screenshot`, async () => {
      let release: () => void = () => {};
      held.set(`/${name}`, new Promise<void>((r) => (release = r)));
      await setTenantPage(`${siteBase}/${name}`);
      const context = await openContext(browser, viewport);
      const page = await context.newPage();
      await page.goto(siteUrl('localhost', '/ai-navigation'));
      await page.getByTestId('ai-nav-loading').waitFor();
      expect(await page.getByTestId('ai-nav-frame').getAttribute('src')).toBe(`${siteBase}/${name}`);
      release();
      await page.getByTestId('ai-nav-loading').waitFor({ state: 'detached' });
      await page
        .frameLocator('[data-testid="ai-nav-frame"]')
        .locator('h1', { hasText: 'AI 工具导航' })
        .waitFor();
      expect(await page.title()).toMatch(/^AI导航 - /);
      // The server found the page frameable: no fallback comes after the check answers.
      await page.waitForTimeout(2_000);
      expect(await page.getByTestId('ai-nav-fallback').count()).toBe(0);
      // The viewport only: a full-page capture resizes the window, which reloads the frame.
      await shot(page, `ai-navigation-${name}`, false);
      await context.close();
    });
  }

  it('shows the fallback when the page refuses to be framed, though the frame fires load', async () => {
    await setTenantPage(`${siteBase}/deny`);
    const context = await openContext(browser, MOBILE);
    const page = await context.newPage();
    await page.goto(siteUrl('localhost', '/ai-navigation'));
    const fallback = page.getByTestId('ai-nav-fallback');
    await fallback.waitFor({ timeout: 10_000 });
    expect(await fallback.textContent()).toContain('该站点不允许在其他网站中嵌入显示');
    expect(await page.getByRole('link', { name: /在新窗口打开/ }).getAttribute('href')).toBe(
      `${siteBase}/deny`,
    );
    await shot(page, 'ai-navigation-refused-mobile');
    await context.close();
  });

  it('shows the fallback with retry and open links when the page never loads', async () => {
    await setTenantPage(`${siteBase}/never`);
    const context = await openContext(browser, DESKTOP);
    const page = await context.newPage();
    await page.clock.install();
    await page.goto(siteUrl('localhost', '/ai-navigation'));
    await page.getByTestId('ai-nav-loading').waitFor();
    await page.clock.fastForward(16_000);
    await page.getByTestId('ai-nav-fallback').waitFor();
    expect(await page.getByTestId('ai-nav-fallback').textContent()).toContain('AI 导航暂时无法加载');
    expect(await page.getByRole('button', { name: /重新加载/ }).count()).toBe(1);
    expect(await page.getByRole('link', { name: /在新窗口打开/ }).getAttribute('href')).toBe(
      `${siteBase}/never`,
    );
    await shot(page, 'ai-navigation-fallback-desktop');
    await context.close();
  });
});
