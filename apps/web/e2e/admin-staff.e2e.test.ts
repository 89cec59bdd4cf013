import type { AdminLoginResponse, AdminSession, TotpPolicy } from '@gpu/shared';
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminLogin,
  api,
  chooseOption,
  clickSettled,
  DESKTOP,
  launchBrowser,
  seedSession,
  shot,
  siteUrl,
  toast,
} from './helpers';

// Issue 29: the 管理员 actions and the 账号安全 actions the other admin files leave out. The super
// administrator edits, resets and ends the sessions of administrators made for this file (never
// the shared demo admin), switches the 2FA rule of 财务 on and off again (the other files sign in
// without 2FA, so afterAll puts the rule back whatever happened), and a non-super administrator
// renews its recovery codes, turns 2FA off and ends one of its own sessions.

const SUFFIX = Date.now() % 100_000;
const STAFF = `e2e-st-${SUFFIX}`;
const FINANCE = `e2e-fin-${SUFFIX}`;
const SELF = `e2e-self-${SUFFIX}`;
const PASSWORD = 'StaffPass123';
const CHANGED = 'StaffPass456';
const PERIOD_MS = 30_000;
/** Tests that wait for the next TOTP step (up to 30 s) on top of the browser work. */
const TOTP_TEST_MS = 120_000;

let browser: Browser;
let demo: Awaited<ReturnType<typeof adminLogin>>;
let initialPolicy: TotpPolicy;
/** The super administrator's 管理员 page, open from the first test on. */
let staffPage: Page;
let tenant: { id: number; name: string };
let staffPassword = PASSWORD;
const ids: Record<string, number> = {};
const contexts: BrowserContext[] = [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * An authenticator app for one secret. A code is good once per 30 s step (the server keeps the
 * last step used), so each call waits for a step after the one it last gave, and never answers
 * in the last second and a half of a step (the server might already be in the next).
 */
function authenticator(secret: string) {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  const stepNow = () => Math.floor(Date.now() / PERIOD_MS);
  let lastStep = -1;
  return async (): Promise<string> => {
    while (stepNow() <= lastStep) await sleep(500);
    if (PERIOD_MS - (Date.now() % PERIOD_MS) < 1_500) await sleep(1_600);
    lastStep = stepNow();
    return totp.generate();
  };
}

const login = (username: string, password: string) =>
  api<AdminLoginResponse>('/admin/auth/login', { body: { username, password } });

/** A session token of `username`, whose sign-in must not ask for a code. */
async function tokenOf(username: string, password: string): Promise<string> {
  const answer = await login(username, password);
  if (!('token' in answer)) throw new Error(`${username}: sign-in asked for a code`);
  return answer.token;
}

/** The sign-in's second step with `code` (TOTP or recovery code): a token, or the server's refusal. */
async function secondStep(username: string, password: string, code: string): Promise<string> {
  const answer = await login(username, password);
  if (!('challenge' in answer)) throw new Error(`${username}: sign-in asked for no code`);
  const done = await api<AdminLoginResponse>('/admin/auth/totp/verify', {
    body: { challenge: answer.challenge, code },
  });
  if (!('token' in done)) throw new Error('no token after the code');
  return done.token;
}

/** The HTTP status GET /admin/auth/me answers `token` with (401 once its session ended). */
async function meStatus(token: string): Promise<number> {
  const res = await fetch(siteUrl('localhost', '/api/admin/auth/me'), {
    headers: { authorization: `Bearer ${token}`, 'x-tenant-host': 'localhost' },
  });
  return res.status;
}

/** The id of the session `token` belongs to (its own list marks it current). */
async function sessionIdOf(token: string): Promise<string> {
  const sessions = await api<AdminSession[]>('/admin/auth/sessions', { token });
  const current = sessions.find((s) => s.current);
  if (!current) throw new Error('no current session');
  return current.id;
}

/** A new administrator with `password` in place of its one-time password (changed through the API). */
async function createStaff(username: string, role: string) {
  const created = await api<{ admin: { id: number }; password: string }>('/admin/admins', {
    token: demo.token,
    body: { username, role, tenantId: null },
  });
  ids[username] = created.admin.id;
  await api('/admin/auth/change-password', {
    token: await tokenOf(username, created.password),
    body: { currentPassword: created.password, newPassword: PASSWORD },
  });
}

/** Starts 2FA through the API as its app would: the secret, the first code; answers the app and recovery codes. */
async function enrolThroughApi(username: string, password: string) {
  const token = await tokenOf(username, password);
  const { secret } = await api<{ secret: string }>('/admin/auth/totp/enrol', { token, body: {} });
  const code = authenticator(secret);
  const { recoveryCodes } = await api<{ recoveryCodes: string[] }>('/admin/auth/totp/confirm', {
    token,
    body: { code: await code() },
  });
  return { code, recoveryCodes };
}

/** The API calls each page had refused with 403: a page must not call what its role may not. */
const refused = new WeakMap<Page, string[]>();

async function newPage(): Promise<Page> {
  const context = await browser.newContext({
    viewport: DESKTOP,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
  });
  contexts.push(context);
  const page = await context.newPage();
  const calls: string[] = [];
  refused.set(page, calls);
  page.on('response', (r) => {
    if (r.status() === 403) calls.push(`${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  return page;
}

/** Signs in on /admin/login with a fresh browser; answers the page once the password step is done. */
async function signIn(username: string, password: string): Promise<Page> {
  const page = await newPage();
  await page.goto(siteUrl('localhost', '/admin/login'));
  await page.getByTestId('username-input').fill(username);
  await page.getByTestId('password-input').fill(password);
  await page.getByTestId('admin-login-submit').click();
  return page;
}

/** Waits until the back office opened (off /admin/login) and its menu is drawn. */
async function signedIn(page: Page) {
  await page.waitForURL((url) => url.pathname.startsWith('/admin') && url.pathname !== '/admin/login');
  await page.getByTestId('admin-menu').waitFor();
}

const menuItems = (page: Page) => page.getByTestId('admin-menu').getByRole('menuitem').allInnerTexts();

/** The 管理员 table's row of `username`, and its cell texts in column order. */
const staffRow = (username: string) =>
  staffPage
    .getByTestId('admins-table')
    .locator('tr', { has: staffPage.getByTestId(`admin-row-${username}`) });
const cell = (row: Locator, column: 'role' | 'tenant' | 'status' | 'totp' | 'sessions') =>
  row.locator('td').nth({ role: 1, tenant: 2, status: 3, totp: 4, sessions: 6 }[column]).textContent();

/** Clicks the open popconfirm's OK once its zoom-in ended (as answerConfirm does for dialogs). */
async function confirmPopover(page: Page) {
  const pop = page.locator('.ant-popconfirm:visible');
  await pop.waitFor();
  await page.waitForFunction(() => !document.querySelector('.ant-popover[class*="zoom-big-"]'));
  await pop.locator('.ant-btn-primary').click();
  await pop.waitFor({ state: 'hidden' });
}

beforeAll(async () => {
  browser = await launchBrowser();
  demo = await adminLogin();
  initialPolicy = await api<TotpPolicy>('/admin/admins/totp-policy', { token: demo.token });
  const tenants = await api<{ id: number; name: string; isDefault: boolean }[]>('/admin/tenants', {
    token: demo.token,
  });
  const picked = tenants.find((x) => !x.isDefault) ?? tenants[0];
  if (!picked) throw new Error('no tenant');
  tenant = picked;
  await createStaff(STAFF, 'FINANCE');
  await createStaff(FINANCE, 'FINANCE');
  await createStaff(SELF, 'OPERATIONS');
  staffPage = await newPage();
  await seedSession(staffPage.context(), { adminToken: demo.token, admin: demo.admin });
});
afterAll(async () => {
  // Whatever failed, the 2FA rule is left as found: other files sign in without codes.
  if (demo && initialPolicy) {
    const now = await api<TotpPolicy>('/admin/admins/totp-policy', { token: demo.token });
    if (JSON.stringify(now) !== JSON.stringify(initialPolicy))
      await api('/admin/admins/totp-policy', { method: 'PUT', token: demo.token, body: initialPolicy });
  }
  for (const c of contexts) await c.close();
  await browser?.close();
});

describe('管理员: the super administrator manages other administrators', () => {
  it('edits role and tenant: the table shows them, and a fresh sign-in gets the new menu', async () => {
    await staffPage.goto(siteUrl('localhost', '/admin/admins'));
    const row = staffRow(STAFF);
    await row.waitFor();
    expect(await cell(row, 'role')).toBe('财务');
    expect(await cell(row, 'tenant')).toBe('平台');

    await staffPage.getByTestId(`admin-edit-${STAFF}`).click();
    const form = staffPage.getByTestId('admin-form');
    await form.waitFor();
    // 财务 cannot be a tenant operator: the tenant select opens once the role is 运营.
    expect(await form.locator('.ant-select-disabled').count()).toBe(1);
    await chooseOption(staffPage, staffPage.getByTestId('admin-role-select'), '运营');
    await chooseOption(staffPage, staffPage.getByTestId('admin-tenant-select'), tenant.name);
    await clickSettled(staffPage, staffPage.getByTestId('admin-form-ok'));
    await toast(staffPage, '已保存');
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => cell(row, 'role')).toBe('运营');
    expect(await cell(row, 'tenant')).toBe(tenant.name);
    const listed = await api<{ id: number; role: string; tenantId: number | null }[]>('/admin/admins', {
      token: demo.token,
    });
    expect(listed.find((a) => a.id === ids[STAFF])).toMatchObject({
      role: 'OPERATIONS',
      tenantId: tenant.id,
    });

    const page = await signIn(STAFF, staffPassword);
    // A tenant operator has no dashboard: it lands on its tenant.
    await page.waitForURL('**/admin/tenants');
    await page.getByTestId('admin-menu').waitFor();
    expect(await page.getByTestId('admin-role').textContent()).toBe(`运营 · 租户 ${tenant.name}`);
    const menu = await menuItems(page);
    for (const item of ['租户管理', '折扣配置', '实例管理', '账号安全']) expect(menu).toContain(item);
    // What 财务 had and a tenant 运营 has not.
    for (const item of ['仪表盘', '余额监控', '主机与GPU管理', '管理员']) expect(menu).not.toContain(item);
    // Its 租户管理 asks only for what a tenant operator may read (it once called GET /admin/regions).
    await page.locator('.ant-table-row').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(refused.get(page)).toEqual([]);
  });

  it('resets the password: shown once, the old one refused, the new one forces a change', async () => {
    const before = await tokenOf(STAFF, staffPassword);
    const row = staffRow(STAFF);
    await row.getByRole('button', { name: '重置密码' }).click();
    await confirmPopover(staffPage);
    const shown = staffPage.getByTestId('one-time-password');
    await shown.waitFor();
    const dialog = staffPage.locator('.ant-modal', { has: shown });
    expect(await dialog.locator('.ant-modal-title').textContent()).toBe('新密码');
    expect(await dialog.textContent()).toContain(`请把以下密码安全地交给 ${STAFF}`);
    const oneTime = ((await shown.textContent()) ?? '').trim();
    expect(oneTime.length).toBeGreaterThanOrEqual(8);
    await shot(staffPage, 'admin-staff-reset-password');
    await staffPage.getByTestId('one-time-password-close').click();
    await shown.waitFor({ state: 'detached' });
    await expect.poll(() => cell(row, 'status')).toContain('待改密');

    // The reset ended its sessions, and the old password no longer signs in.
    expect(await meStatus(before)).toBe(401);
    await expect(login(STAFF, staffPassword)).rejects.toThrow('用户名或密码错误');

    const page = await signIn(STAFF, oneTime);
    await page.waitForURL('**/admin/security');
    expect(await page.getByTestId('forced-step').textContent()).toContain('请先修改密码');
    expect(await menuItems(page)).toEqual(['账号安全']);
    await page.getByTestId('current-password').fill(oneTime);
    await page.getByTestId('new-password').fill(CHANGED);
    await page.getByTestId('confirm-password').fill(CHANGED);
    await page.getByTestId('password-submit').click();
    await page.waitForURL('**/admin/tenants');
    staffPassword = CHANGED;
    await staffPage.reload();
    await row.waitFor();
    expect(await cell(row, 'status')).not.toContain('待改密');
  });

  it(
    'resets 2FA enrolled through the API: the table says 未开启 and the next sign-in asks no code',
    async () => {
      const { recoveryCodes } = await enrolThroughApi(STAFF, staffPassword);
      expect(recoveryCodes).toHaveLength(10);
      expect('challenge' in (await login(STAFF, staffPassword))).toBe(true);

      await staffPage.reload();
      const row = staffRow(STAFF);
      await row.waitFor();
      expect(await cell(row, 'totp')).toBe('已开启');
      await row.getByRole('button', { name: '重置两步验证' }).click();
      await confirmPopover(staffPage);
      await toast(staffPage, '两步验证已重置');
      await expect.poll(() => cell(row, 'totp')).toBe('未开启');
      // No 重置两步验证 left on a row without 2FA.
      expect(await row.getByRole('button', { name: '重置两步验证' }).count()).toBe(0);

      const page = await signIn(STAFF, staffPassword);
      await page.waitForURL('**/admin/tenants');
      expect(await page.getByTestId('totp-code-input').count()).toBe(0);
      // Its recovery codes went with the secret.
      const account = await api<{ totpEnabled: boolean }>('/admin/auth/me', {
        token: await tokenOf(STAFF, staffPassword),
      });
      expect(account.totpEnabled).toBe(false);
    },
    TOTP_TEST_MS,
  );

  it('ends one session from the sessions drawer: that token answers 401, another still works', async () => {
    const ended = await tokenOf(STAFF, staffPassword);
    const kept = await tokenOf(STAFF, staffPassword);
    const sid = await sessionIdOf(ended);
    const keptSid = await sessionIdOf(kept);

    await staffPage.reload();
    await staffPage.getByTestId(`admin-sessions-${STAFF}`).click();
    const drawer = staffPage.getByTestId('admin-sessions');
    const end = drawer.getByTestId(`end-session-${sid}`);
    await end.waitFor();
    await drawer.getByTestId(`end-session-${keptSid}`).waitFor();
    await clickSettled(staffPage, end);
    await confirmPopover(staffPage);
    await toast(staffPage, '会话已结束');
    await end.waitFor({ state: 'detached' });
    await drawer.getByTestId(`end-session-${keptSid}`).waitFor();
    await shot(staffPage, 'admin-staff-sessions-drawer');

    expect(await meStatus(ended)).toBe(401);
    expect(await meStatus(kept)).toBe(200);
    const sessions = await api<AdminSession[]>('/admin/auth/sessions', { token: kept });
    expect(sessions.map((s) => s.id)).not.toContain(sid);
    await staffPage.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
  });

  it('switches the 2FA rule of 财务 on (its administrator must enrol first) and off again', async () => {
    const toggle = staffPage.getByTestId('totp-policy-FINANCE');
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe(String(initialPolicy.FINANCE));
    if (initialPolicy.FINANCE) throw new Error('财务 already needs 2FA: this test expects it off');

    await toggle.click();
    await toast(staffPage, '两步验证要求已保存');
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    const on = await api<TotpPolicy>('/admin/admins/totp-policy', { token: demo.token });
    expect(on).toEqual({ ...initialPolicy, FINANCE: true });

    const page = await signIn(FINANCE, PASSWORD);
    await page.waitForURL('**/admin/security');
    const alert = page.getByTestId('forced-step');
    expect(await alert.textContent()).toContain('请先开启两步验证');
    expect(await menuItems(page)).toEqual(['账号安全']);
    await page.getByTestId('totp-enrol').waitFor();
    await shot(page, 'admin-staff-finance-must-enrol');
    // The server says the same to its calls.
    await expect(api('/admin/balance/stats', { token: await tokenOf(FINANCE, PASSWORD) })).rejects.toThrow(
      '请先开启两步验证后再继续操作',
    );

    await toggle.click();
    await toast(staffPage, '两步验证要求已保存');
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    expect(await api<TotpPolicy>('/admin/admins/totp-policy', { token: demo.token })).toEqual(initialPolicy);

    const again = await signIn(FINANCE, PASSWORD);
    await signedIn(again);
    expect(new URL(again.url()).pathname).not.toBe('/admin/security');
    expect(await menuItems(again)).toContain('余额监控');
  });
});

describe('账号安全: a non-super administrator manages its own 2FA and sessions', () => {
  let code: () => Promise<string>;
  let oldCodes: string[] = [];
  let newCodes: string[] = [];
  let page: Page;

  it(
    'renews its recovery codes with a code from the app: the old ones are refused, a new one works',
    async () => {
      ({ code, recoveryCodes: oldCodes } = await enrolThroughApi(SELF, PASSWORD));
      // Signs in with a recovery code (the app's code is kept for the renewal).
      page = await signIn(SELF, PASSWORD);
      await page.getByTestId('totp-switch-mode').click();
      await page.getByTestId('recovery-code-input').fill(oldCodes[0] ?? '');
      await page.getByTestId('admin-totp-submit').click();
      await signedIn(page);
      await page.goto(siteUrl('localhost', '/admin/security'));
      await expect.poll(() => page.getByTestId('totp-status').textContent()).toBe('已开启');
      expect(await page.getByTestId('admin-role').textContent()).toBe('运营');

      await page.getByTestId('totp-regenerate').click();
      await page.getByTestId('totp-regenerate-code').fill(await code());
      await page.getByTestId('totp-regenerate-submit').click();
      const codes = page.getByTestId('recovery-codes');
      await codes.waitFor();
      newCodes = (await codes.locator('code').allInnerTexts()).map((c) => c.trim());
      expect(newCodes).toHaveLength(10);
      for (const c of newCodes) expect(oldCodes).not.toContain(c);
      await shot(page, 'admin-staff-new-recovery-codes');
      await page.getByTestId('recovery-codes-saved').click();
      await codes.waitFor({ state: 'hidden' });

      await expect(secondStep(SELF, PASSWORD, oldCodes[1] ?? '')).rejects.toThrow('验证码错误');
      expect(await meStatus(await secondStep(SELF, PASSWORD, newCodes[0] ?? ''))).toBe(200);
    },
    TOTP_TEST_MS,
  );

  it('turns 2FA off with its password (a wrong one is refused); the next sign-in asks no code', async () => {
    await page.getByTestId('totp-disable').click();
    await page.getByTestId('totp-disable-password').fill('WrongPass123');
    await page.getByTestId('totp-disable-submit').click();
    await page.getByText('当前密码错误').first().waitFor();
    expect(await page.getByTestId('totp-status').textContent()).toBe('已开启');

    await page.getByTestId('totp-disable-password').fill(PASSWORD);
    await page.getByTestId('totp-disable-submit').click();
    await toast(page, '两步验证已关闭');
    await expect.poll(() => page.getByTestId('totp-status').textContent()).toBe('未开启');
    await page.getByTestId('totp-enrol').waitFor();
    expect(await meStatus(await tokenOf(SELF, PASSWORD))).toBe(200);
  });

  it('ends another of its own sessions from the list and stays signed in', async () => {
    const other = await tokenOf(SELF, PASSWORD);
    const sid = await sessionIdOf(other);
    await page.reload();
    const list = page.getByTestId('sessions');
    const end = list.getByTestId(`end-session-${sid}`);
    await end.waitFor();
    // This browser's own session is marked.
    expect(await list.textContent()).toContain('当前会话');
    await end.click();
    await confirmPopover(page);
    await toast(page, '会话已结束');
    await end.waitFor({ state: 'detached' });

    expect(await meStatus(other)).toBe(401);
    expect(new URL(page.url()).pathname).toBe('/admin/security');
    expect(await list.textContent()).toContain('当前会话');
    await shot(page, 'admin-staff-own-sessions');
  });
});
