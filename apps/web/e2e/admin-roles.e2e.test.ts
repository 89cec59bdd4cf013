import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminLogin, api, DESKTOP, launchBrowser, MOBILE, seedSession, shot, siteUrl } from './helpers';

// Issue 29: the back office shows each role only what it may do. The super administrator makes a
// 只读 administrator on the 管理员 page and a 运营 tenant operator; each signs in (the forced
// password change done in the browser), sees its menu and no write buttons it may not use, and a
// page outside its role answers 403.

const SUFFIX = Date.now() % 100_000;
const READONLY = `e2e-ro-${SUFFIX}`;
const OPERATOR = `e2e-op-${SUFFIX}`;
const NEW_PASSWORD = 'RolesPass123';

let browser: Browser;
let demo: Awaited<ReturnType<typeof adminLogin>>;
let readonlyPassword = '';
let tenantName = '';
const contexts: BrowserContext[] = [];

async function newPage(viewport: { width: number; height: number } = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  contexts.push(context);
  return context.newPage();
}

async function signIn(page: Page, username: string, password: string) {
  await page.goto(siteUrl('localhost', '/admin/login'));
  await page.getByTestId('username-input').fill(username);
  await page.getByTestId('password-input').fill(password);
  await page.getByTestId('admin-login-submit').click();
}

const menuItems = (page: Page) => page.getByTestId('admin-menu').getByRole('menuitem').allInnerTexts();

async function open(page: Page, path: string) {
  await page.goto(siteUrl('localhost', path));
  await page.getByTestId('page-header').or(page.getByTestId('admin-forbidden')).first().waitFor();
}

beforeAll(async () => {
  browser = await launchBrowser();
  demo = await adminLogin();
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
});

describe('administrators and roles', () => {
  it('the super administrator creates a 只读 administrator on 管理员 and sees its one-time password once', async () => {
    const page = await newPage();
    await seedSession(page.context(), { adminToken: demo.token, admin: demo.admin });
    await open(page, '/admin/admins');
    await page.getByTestId(`admin-row-${demo.admin.username}`).waitFor();
    await page.getByTestId('admin-create').click();
    await page.getByTestId('admin-username').fill(READONLY);
    // 只读 is the form's default role; no tenant.
    await page.getByTestId('admin-form-ok').click();
    const password = page.getByTestId('one-time-password');
    await password.waitFor();
    readonlyPassword = (await password.innerText()).trim();
    expect(readonlyPassword.length).toBeGreaterThanOrEqual(8);
    await shot(page, 'admin-roles-one-time-password');
    await page.getByTestId('one-time-password-close').click();
    await password.waitFor({ state: 'detached' });
    const row = page
      .getByTestId('admins-table')
      .locator('tr', { has: page.getByTestId(`admin-row-${READONLY}`) });
    await row.waitFor();
    expect(await row.innerText()).toContain('只读');
    expect(await row.innerText()).toContain('待改密');
    await page.getByTestId('totp-policy').waitFor();
    await shot(page, 'admin-roles-admins-1440');
  });

  it('the 只读 administrator must change the password first, then reads but cannot write', async () => {
    const page = await newPage();
    await signIn(page, READONLY, readonlyPassword);
    await page.waitForURL('**/admin/security');
    expect(await page.getByTestId('forced-step').innerText()).toContain('请先修改密码');
    expect(await menuItems(page)).toEqual(['账号安全']);
    // Another page sends it back here.
    await page.goto(siteUrl('localhost', '/admin/host-management'));
    await page.waitForURL('**/admin/security');
    await shot(page, 'admin-roles-forced-step');

    await page.getByTestId('current-password').fill(readonlyPassword);
    await page.getByTestId('new-password').fill(NEW_PASSWORD);
    await page.getByTestId('confirm-password').fill(NEW_PASSWORD);
    await page.getByTestId('password-submit').click();
    await page.waitForURL('**/admin/dashboard');
    expect(await page.getByTestId('admin-role').innerText()).toBe('只读');
    const menu = await menuItems(page);
    expect(menu).toContain('主机与GPU管理');
    expect(menu).toContain('操作日志');
    expect(menu).toContain('账号安全');
    expect(menu).not.toContain('管理员');

    await open(page, '/admin/host-management');
    await page.locator('.ant-table-row').first().waitFor();
    expect(await page.getByTestId('host-create').count()).toBe(0);
    expect(await page.getByRole('button', { name: '编辑' }).count()).toBe(0);
    await open(page, '/admin/discount-config');
    expect(await page.getByTestId('discount-create').count()).toBe(0);
    await open(page, '/admin/voucher-config');
    expect(await page.getByTestId('config-create').count()).toBe(0);
    await open(page, '/admin/balance-monitoring');
    expect(await page.getByTestId('balance-check').count()).toBe(0);
    await open(page, '/admin/admins');
    await page.getByTestId('admin-forbidden').waitFor();
    expect(await page.getByTestId('admin-forbidden').innerText()).toContain('当前角色无权访问此页面');
    await shot(page, 'admin-roles-readonly-403');
  });

  it('a 运营 tenant operator sees only its tenant areas, names its tenant, and may change prices', async () => {
    const tenants = await api<{ id: number; name: string; isDefault: boolean }[]>('/admin/tenants', {
      token: demo.token,
    });
    const tenant = tenants.find((x) => !x.isDefault) ?? tenants[0];
    if (!tenant) throw new Error('no tenant');
    tenantName = tenant.name;
    const created = await api<{ password: string }>('/admin/admins', {
      token: demo.token,
      body: { username: OPERATOR, role: 'OPERATIONS', tenantId: tenant.id },
    });
    const first = await api<{ token: string }>('/admin/auth/login', {
      body: { username: OPERATOR, password: created.password },
    });
    await api('/admin/auth/change-password', {
      token: first.token,
      body: { currentPassword: created.password, newPassword: NEW_PASSWORD },
    });

    const page = await newPage(MOBILE);
    await signIn(page, OPERATOR, NEW_PASSWORD);
    // No dashboard for a tenant operator: /admin lands on its first page.
    await page.waitForURL('**/admin/tenants');
    await page.setViewportSize(DESKTOP);
    expect(await page.getByTestId('admin-role').innerText()).toBe(`运营 · 租户 ${tenantName}`);
    const menu = await menuItems(page);
    for (const item of ['租户管理', '折扣配置', '用户管理', '实例管理', '咨询管理', '账号安全'])
      expect(menu).toContain(item);
    for (const item of ['仪表盘', '主机与GPU管理', '余额监控', '操作日志', '管理员'])
      expect(menu).not.toContain(item);
    expect(await page.getByTestId('tenant-create').count()).toBe(0);

    await open(page, '/admin/discount-config');
    await page.getByTestId('discount-create').waitFor();
    await open(page, '/admin/host-management');
    await page.getByTestId('admin-forbidden').waitFor();
    await open(page, '/admin/dashboard');
    await page.waitForURL('**/admin/tenants');
    await page.setViewportSize(MOBILE);
    await open(page, '/admin/admins');
    await page.getByTestId('admin-forbidden').waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(MOBILE.width);
    await shot(page, 'admin-roles-operator-403-390');
  });

  it('the super administrator sees the new administrators, their sessions, and can disable one', async () => {
    const page = await newPage();
    await seedSession(page.context(), { adminToken: demo.token, admin: demo.admin });
    await open(page, '/admin/admins');
    const row = page
      .getByTestId('admins-table')
      .locator('tr', { has: page.getByTestId(`admin-row-${OPERATOR}`) });
    await row.waitFor();
    expect(await row.innerText()).toContain(tenantName);
    expect(await row.innerText()).toContain('运营');
    await page.getByTestId(`admin-sessions-${OPERATOR}`).click();
    const drawer = page.getByTestId('admin-sessions');
    await drawer.locator('.ant-table-row').first().waitFor();
    await shot(page, 'admin-roles-sessions');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    await row.getByRole('button', { name: '停用' }).click();
    // The confirm's own button (antd spaces two-character labels: 停 用).
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await expect.poll(() => row.innerText()).toContain('已停用');
    // Its sessions ended: the operator's sign-in no longer works either.
    await expect(
      api('/admin/auth/login', { body: { username: OPERATOR, password: NEW_PASSWORD } }),
    ).rejects.toThrow();
  });
});
