import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminLogin, api, DESKTOP, launchBrowser, MOBILE, shot, siteUrl } from './helpers';

// Issue 29: two-factor sign-in in a real browser. A super administrator made for this file
// (never the shared demo admin: the other files keep signing in without 2FA) enrols on 账号安全,
// signs out, and signs in with a code, then with a recovery code.

const USERNAME = `e2e-2fa-${Date.now() % 100_000}`;
const PASSWORD = 'Totp2faPass1';
const PERIOD_MS = 30_000;

let browser: Browser;
let context: BrowserContext;
let page: Page;
let totp: TOTP;
let recoveryCodes: string[] = [];
let lastStep = -1;

const step = () => Math.floor(Date.now() / PERIOD_MS);

/** A fresh code: a code is good once per 30 s step, so after one is used wait for the next step. */
async function nextCode(): Promise<string> {
  while (step() <= lastStep) await new Promise((r) => setTimeout(r, 500));
  // Not in the last second of a step: the server would see the next one.
  if (PERIOD_MS - (Date.now() % PERIOD_MS) < 1_500) await new Promise((r) => setTimeout(r, 1_600));
  lastStep = step();
  return totp.generate();
}

async function signInWithPassword() {
  await page.goto(siteUrl('localhost', '/admin/login'));
  await page.getByTestId('username-input').fill(USERNAME);
  await page.getByTestId('password-input').fill(PASSWORD);
  await page.getByTestId('admin-login-submit').click();
}

async function signOut() {
  await page.getByTestId('admin-logout').click();
  await page.waitForURL('**/admin/login**');
}

beforeAll(async () => {
  browser = await launchBrowser();
  const demo = await adminLogin();
  const created = await api<{ password: string }>('/admin/admins', {
    token: demo.token,
    body: { username: USERNAME, role: 'SUPER', tenantId: null },
  });
  // The one-time password is changed here (the roles file does that step in the browser).
  const first = await api<{ token: string }>('/admin/auth/login', {
    body: { username: USERNAME, password: created.password },
  });
  await api('/admin/auth/change-password', {
    token: first.token,
    body: { currentPassword: created.password, newPassword: PASSWORD },
  });
  context = await browser.newContext({ viewport: DESKTOP, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  page = await context.newPage();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('two-factor sign-in (TOTP)', () => {
  it('enrols on 账号安全: QR and secret, a code confirms it, recovery codes are shown once', async () => {
    await signInWithPassword();
    await page.waitForURL('**/admin/dashboard');
    await page.goto(siteUrl('localhost', '/admin/security'));
    expect(await page.getByTestId('totp-status').textContent()).toBe('未开启');
    await page.getByTestId('totp-enrol').click();
    const secret = (await page.getByTestId('totp-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    expect(await page.locator('[data-testid="totp-enrolment"] svg').count()).toBeGreaterThan(0);
    totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });

    // A wrong code is refused and changes nothing.
    await page.getByTestId('totp-confirm-code').fill(totp.generate({ timestamp: Date.now() - 300_000 }));
    await page.getByTestId('totp-confirm').click();
    await page.getByText('验证码错误').first().waitFor();

    await page.getByTestId('totp-confirm-code').fill(await nextCode());
    await page.getByTestId('totp-confirm').click();
    const codes = page.getByTestId('recovery-codes');
    await codes.waitFor();
    recoveryCodes = (await codes.locator('code').allInnerTexts()).map((c) => c.trim());
    expect(recoveryCodes).toHaveLength(10);
    for (const c of recoveryCodes) expect(c).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    await shot(page, 'admin-2fa-recovery-codes');
    await page.getByTestId('recovery-codes-saved').click();
    await codes.waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByTestId('totp-status').textContent()).toBe('已开启');
    // A super administrator cannot turn it off again.
    expect(await page.getByTestId('totp-disable').count()).toBe(0);
    await page.getByTestId('totp-super-note').waitFor();
    await shot(page, 'admin-2fa-enabled');
  });

  it('signs in with the password, then a code from the app', async () => {
    await signOut();
    await signInWithPassword();
    const input = page.getByTestId('totp-code-input');
    await input.waitFor();
    expect(await input.getAttribute('inputmode')).toBe('numeric');
    expect(await input.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);

    // A wrong code first: the server's message, still on the code step.
    await input.fill('000000');
    await page.getByTestId('admin-totp-submit').click();
    await page.getByText('验证码错误').first().waitFor();
    await shot(page, 'admin-2fa-code-step');

    await input.fill(await nextCode());
    await page.getByTestId('admin-totp-submit').click();
    await page.waitForURL('**/admin/dashboard');
    await page.getByTestId('admin-role').waitFor();
    expect(await page.getByTestId('admin-role').textContent()).toBe('超级管理员');
  });

  it('signs in with a recovery code instead, once', async () => {
    await signOut();
    await signInWithPassword();
    await page.getByTestId('totp-switch-mode').click();
    await page.getByTestId('recovery-code-input').fill(recoveryCodes[0] ?? '');
    await page.getByTestId('admin-totp-submit').click();
    await page.waitForURL('**/admin/dashboard');

    // The same recovery code does not work twice.
    await signOut();
    await signInWithPassword();
    await page.getByTestId('totp-switch-mode').click();
    await page.getByTestId('recovery-code-input').fill(recoveryCodes[0] ?? '');
    await page.getByTestId('admin-totp-submit').click();
    await page.getByText('验证码错误').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/login');
  });

  it('fits a phone: the code step and 账号安全', async () => {
    await page.setViewportSize(MOBILE);
    await page.getByTestId('totp-back').click();
    await page.getByTestId('password-input').fill(PASSWORD);
    await page.getByTestId('admin-login-submit').click();
    await page.getByTestId('totp-code-input').fill(await nextCode());
    await page.getByTestId('admin-totp-submit').click();
    await page.waitForURL('**/admin/dashboard');
    await page.goto(siteUrl('localhost', '/admin/security'));
    await page.getByTestId('totp-status').waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(MOBILE.width);
    await shot(page, 'admin-2fa-security-390');
  });
});
