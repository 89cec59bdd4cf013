import type { TenantConfig } from '@gpu/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminLogin,
  answerConfirm,
  DESKTOP,
  launchBrowser,
  registerUser,
  seedSession,
  siteUrl,
  tenantConfig,
  titled,
} from './helpers';

let browser: Browser;
let tenant: TenantConfig;

beforeAll(async () => {
  browser = await launchBrowser();
  tenant = await tenantConfig('localhost');
});
afterAll(() => browser?.close());

async function visit(path: string, context?: BrowserContext): Promise<Page> {
  const page = context ? await context.newPage() : await browser.newPage({ viewport: DESKTOP });
  await page.goto(siteUrl('localhost', path));
  await page.waitForLoadState('networkidle');
  return page;
}

const where = (page: Page) => {
  const url = new URL(page.url());
  return { path: url.pathname, redirect: url.searchParams.get('redirect') };
};

describe('visitors', () => {
  const AUTH_ROUTES = [
    '/subscribe?skuGpuId=1&billingType=daily',
    '/console',
    '/console/instance',
    '/console/orders',
    '/console/account-security',
    '/recharge',
    '/blockchain',
    '/user',
  ];
  for (const route of AUTH_ROUTES) {
    it(`are sent from ${route} to /login?redirect=…`, async () => {
      const page = await visit(route);
      expect(where(page)).toEqual({ path: '/login', redirect: route });
      expect(await page.title()).toBe(`登录 - ${tenant.tenantName}`);
      // auth pages: no navbar, the tenant's name shown
      expect(await page.getByTestId('nav-register').count()).toBe(0);
      expect(await page.getByTestId('tenant-name').textContent()).toBe(tenant.tenantName);
      await page.close();
    });
  }

  for (const route of ['/admin/dashboard', '/admin/tenants?page=2', '/admin/instance-management']) {
    it(`are sent from ${route} to /admin/login?redirect=…`, async () => {
      const page = await visit(route);
      expect(where(page)).toEqual({ path: '/admin/login', redirect: route });
      expect(await page.title()).toBe(`管理员登录 - ${tenant.tenantName}`);
      await page.close();
    });
  }

  it('are sent from exactly /admin to /admin/login', async () => {
    const page = await visit('/admin');
    expect(where(page)).toEqual({ path: '/admin/login', redirect: null });
    await page.close();
  });

  it('see public pages, titled "<route title> - <platform>"', async () => {
    // Every page is built: each shows one of its own parts, and no "under construction" text.
    for (const [route, title, part] of [
      ['/market', '算力市场', 'filter-billing'],
      ['/cloud', 'GPU云主机', 'cloud-sample-notice'],
      ['/contact', 'GPU裸金属', 'enquiry-form'],
      ['/ai-navigation', 'AI导航', 'ai-nav-frame'],
      ['/register', '注册', 'phone-input'],
      ['/forgot-password?phone=13800000000', '忘记密码', 'reset-form'],
    ] as const) {
      const page = await visit(route);
      expect(new URL(page.url()).pathname).toBe(route.split('?')[0]);
      expect(await page.title()).toBe(`${title} - ${tenant.tenantName}`);
      await page.getByTestId(part).first().waitFor({ state: 'attached' });
      expect(await page.locator('body').textContent(), route).not.toContain('建设中');
      await page.close();
    }
  });

  it('get a 404 page for unknown paths', async () => {
    const page = await visit('/no-such-page');
    expect(await page.title()).toBe(`页面不存在 - ${tenant.tenantName}`);
    expect(await page.getByText('404').count()).toBeGreaterThan(0);
    await page.close();
  });
});

describe('a logged-in user', () => {
  let context: BrowserContext;
  let username: string;

  beforeAll(async () => {
    const session = await registerUser();
    username = session.user.username;
    context = await browser.newContext({ viewport: DESKTOP });
    await seedSession(context, { token: session.accessToken, user: session.user });
  });
  afterAll(() => context?.close());

  it('is sent from the auth pages to /market, or to the redirect query', async () => {
    for (const route of ['/login', '/register', '/forgot-password']) {
      const page = await visit(route, context);
      expect(where(page).path).toBe('/market');
      await page.close();
    }
    const page = await visit('/login?redirect=%2Fuser', context);
    expect(where(page).path).toBe('/user');
    await page.close();
  });

  it('opens the console (redirected to /console/instance) with its sidebar', async () => {
    const page = await visit('/console', context);
    expect(where(page).path).toBe('/console/instance');
    expect(await page.title()).toBe(`容器实例 - ${tenant.tenantName}`);
    for (const item of ['首页', '容器实例', '我的订单', '费用明细', '充值订单', '我的代金券', '账号安全']) {
      expect(await page.locator('.ant-layout-sider').getByText(item, { exact: true }).count()).toBe(1);
    }
    await page.locator('.ant-layout-sider').getByText('我的代金券').click();
    await page.waitForURL('**/console/vouchers');
    await titled(page, `我的代金券 - ${tenant.tenantName}`);
    await page.close();
  });

  it('sees the user page and the account menu; logout from an auth route goes to /market', async () => {
    const page = await visit('/user', context);
    // The username is the phone, which 个人中心 shows masked (issue 28).
    const masked = `${username.slice(0, 3)}****${username.slice(-4)}`;
    expect(await page.getByRole('heading', { name: masked }).count()).toBe(1);
    await page.getByTestId('user-menu').hover();
    const panel = page.getByTestId('account-panel');
    await panel.waitFor({ state: 'visible' });
    expect(await panel.textContent()).toContain('冻结余额¥0.00');
    // Once (CI, loaded runner) a click on the hover panel opened no dialog; a person would click
    // again, and so does the test, after 10 s: one dialog either way (the last one is answered).
    const confirm = page.locator('.ant-modal-confirm-title', { hasText: '确定要退出登录吗？' });
    for (let attempt = 1; ; attempt++) {
      if (!(await confirm.first().isVisible())) await panel.getByTestId('logout').click();
      const shown = await confirm
        .first()
        .waitFor({ timeout: 10_000 })
        .then(() => true)
        .catch(() => false);
      if (shown) break;
      if (attempt === 3) throw new Error('the logout dialog did not open after three clicks');
    }
    await answerConfirm(page, '确定');
    await page.getByText('已退出登录').waitFor();
    expect(where(page).path).toBe('/market');
    expect(await page.getByTestId('nav-register').isVisible()).toBe(true);
    await page.close();
  });
});

describe('the 401 rule', () => {
  it('clears a stale user session and sends the browser to /login', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    await seedSession(context, { token: 'stale-token', user: { id: 1, username: 'ghost' } });
    const page = await visit('/market', context);
    // The first request with the stale token answers 401: the bell's unread count asks at once;
    // else the account menu's balance when hovered (a page already on /login has no menu).
    await page
      .getByTestId('user-menu')
      .hover({ timeout: 5_000 })
      .catch(() => undefined);
    await page.waitForURL('**/login?redirect=*');
    expect(where(page)).toEqual({ path: '/login', redirect: '/market' });
    expect(await page.evaluate(() => window.localStorage.getItem('gpu.token'))).toBeNull();
    await context.close();
  });
});

describe('the 401 rule on admin paths', () => {
  it('clears a stale admin session when the back office checks the profile', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    await seedSession(context, {
      adminToken: 'stale',
      admin: {
        id: 1,
        username: 'admin',
        roles: ['ADMIN', 'SUPER'],
        role: 'SUPER',
        tenantId: null,
        tenantName: null,
        permissions: ['tenants:read'],
        totpEnabled: false,
        mustChangePassword: false,
        mustEnrolTotp: false,
      },
    });
    const page = await visit('/admin/tenants', context);
    await page.waitForURL('**/admin/login?redirect=*');
    expect(where(page)).toEqual({ path: '/admin/login', redirect: '/admin/tenants' });
    expect(await page.evaluate(() => window.localStorage.getItem('gpu.adminToken'))).toBeNull();
    await context.close();
  });
});

describe('an admin', () => {
  let context: BrowserContext;

  beforeAll(async () => {
    const { token, admin } = await adminLogin();
    context = await browser.newContext({ viewport: DESKTOP });
    await seedSession(context, { adminToken: token, admin });
  });
  afterAll(() => context?.close());

  it('goes from /admin to /admin/dashboard and from /admin/login to /admin', async () => {
    let page = await visit('/admin', context);
    expect(where(page).path).toBe('/admin/dashboard');
    expect(await page.title()).toBe(`仪表盘 - ${tenant.tenantName}`);
    await page.close();
    page = await visit('/admin/login', context);
    expect(where(page).path).toBe('/admin/dashboard');
    await page.close();
  });

  it('sees every admin page in the side menu', async () => {
    const page = await visit('/admin/tenants', context);
    const menu = page.locator('.ant-layout-sider');
    for (const item of [
      '仪表盘',
      '租户管理',
      '租户主机权限',
      '折扣配置',
      '代金券配置',
      '代金券发放',
      '主机与GPU管理',
      '租户主机定价',
      '余额监控',
      '用户管理',
      '实例管理',
      '操作日志',
      '咨询管理',
    ]) {
      expect(await menu.getByText(item, { exact: true }).count()).toBe(1);
    }
    await menu.getByText('余额监控').click();
    await page.waitForURL('**/admin/balance-monitoring');
    await page.getByTestId('balance-check').waitFor();
    expect(await page.locator('body').textContent()).not.toContain('建设中');
    await page.close();
  });

  it('is still a visitor on user routes (separate sessions)', async () => {
    const page = await visit('/console/orders', context);
    expect(where(page)).toEqual({ path: '/login', redirect: '/console/orders' });
    await page.close();
  });
});
