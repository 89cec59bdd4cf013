import type { User } from '@gpu/shared';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, DESKTOP, launchBrowser, MOBILE, registerUser } from './helpers';
import { expectNoSidewaysScroll, openContext, shot, toast, visit } from './screen-helpers';

// /console/account-security (SPEC.md §2, §8): password, phone, recent sign-ins.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const me = (token: string) => api<User>('/auth/me', { token });

describe('account security (desktop)', () => {
  it('lists sign-ins, changes the password (signing out the other session) and the phone', async () => {
    const session = await registerUser();
    // A second sign-in elsewhere, which the password change must end.
    const other = await api<{ accessToken: string }>('/auth/login', {
      body: { phone: session.user.phone, password: 'Passw0rd!', rememberMe: false },
    });
    const context = await openContext(browser, DESKTOP, { token: session.accessToken, user: session.user });
    const page = await visit(context, '/console/account-security');
    expect(await page.title()).toMatch(/^账号安全 - /);
    await page.getByTestId('sign-ins').locator('tr.ant-table-row, li').nth(1).waitFor();
    expect(await page.getByTestId('sign-ins').locator('tr.ant-table-row, li').count()).toBeGreaterThanOrEqual(
      2,
    );
    expect(await page.getByTestId('current-phone').textContent()).toContain(session.user.phone);
    await shot(page, 'account-security-desktop');

    // Wrong old password: the server's message.
    await page.getByTestId('old-password').fill('Wrong1234');
    await page.getByTestId('new-password').fill('NewPassw0rd');
    await page.getByTestId('confirm-password').fill('NewPassw0rd');
    await page.getByTestId('password-submit').click();
    await toast(page, '原密码错误');

    await page.getByTestId('old-password').fill('Passw0rd!');
    await page.getByTestId('password-submit').click();
    await toast(page, '密码修改成功');
    await expect(me(other.accessToken)).rejects.toThrow(/401/);
    // This browser goes on with its fresh session; the list shows the other one ended.
    await page.locator('[data-testid="sign-ins"] .ant-tag', { hasText: '已退出' }).first().waitFor();

    // Change phone: the current password, and the code that goes to the new phone (shown in the
    // test environment). A second sign-in elsewhere, which the phone change must end.
    const another = await api<{ accessToken: string }>('/auth/login', {
      body: { phone: session.user.phone, password: 'NewPassw0rd', rememberMe: false },
    });
    const newPhone = `137${String(Date.now() % 1e8).padStart(8, '0')}`;
    await page.getByTestId('phone-password').fill('NewPassw0rd');
    await page.getByTestId('new-phone').fill(newPhone);
    await page.getByTestId('send-code').click();
    const notice = page.locator('.ant-message-notice', { hasText: '测试环境验证码' });
    await notice.waitFor();
    const code = /(\d{6})/.exec((await notice.textContent()) ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    await page.getByTestId('code-input').fill(code);
    await page.getByTestId('phone-submit').click();
    await toast(page, '手机号已更换');
    await page.getByTestId('current-phone').filter({ hasText: newPhone }).waitFor();
    await expect(me(another.accessToken)).rejects.toThrow(/401/);
    // This browser goes on with its fresh session.
    await page.reload();
    await page.getByTestId('current-phone').filter({ hasText: newPhone }).waitFor();
    await shot(page, 'account-security-phone-changed');
    await context.close();
  });
});

describe('account security (390 px)', () => {
  it('fits the phone; screenshot', async () => {
    const session = await registerUser();
    const context = await openContext(browser, MOBILE, { token: session.accessToken, user: session.user });
    const page = await visit(context, '/console/account-security');
    await page.getByTestId('sign-ins').locator('tr.ant-table-row, li').first().waitFor();
    await expectNoSidewaysScroll(page);
    await shot(page, 'account-security-mobile');
    await context.close();
  });
});
