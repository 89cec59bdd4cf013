import type { User } from '@gpu/shared/auth';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appRoutes } from '../../../app/router';
import { configureApiClient } from '../../../lib/api-client';
import { clearUserSession, getSession, setUserSession } from '../../../lib/session';
import { renderApp } from '../../../test/render-app';

vi.setConfig({ testTimeout: 30_000 });

type Answer = { status?: number; body: unknown };
const ok = (data: unknown, message = '成功') => ({ body: { success: true, code: '200', message, data } });
const fail = (status: number, code: string, message: string) => ({
  status,
  body: { success: false, code, message, data: null },
});

const USER = { id: 7, tenantId: 1, username: '13800138000', phone: '13800138000' } as User;
let routes: Record<string, (body: unknown) => Answer>;
let calls: { method: string; path: string; body: unknown }[];

beforeEach(() => {
  configureApiClient({ navigate: () => {} });
  calls = [];
  routes = { 'GET /api/user/sign-ins': () => ok([]) };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      const method = init?.method ?? 'GET';
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, path: url.pathname, body });
      const handler = routes[`${method} ${url.pathname}`];
      const answer = handler ? handler(body) : fail(404, '404', '接口不存在');
      return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
    }),
  );
  setUserSession('old-token', USER);
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearUserSession();
});

const type = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });
const findText = (text: string) => screen.findByText(text, {}, { timeout: 5_000 });
const button = (testId: string) => screen.getByTestId(testId) as HTMLButtonElement;
const callsTo = (path: string) => calls.filter((c) => c.path === path);

describe('account security: change phone', () => {
  it('asks for the current password, sends the code to the new phone (60 s cooldown) and takes the fresh session', async () => {
    routes['POST /api/auth/send-verification-code'] = () => ok({ code: '654321' }, '验证码发送成功');
    routes['POST /api/user/change-phone'] = () =>
      ok(
        { accessToken: 'fresh-token', user: { ...USER, phone: '13900139000', username: '13900139000' } },
        '手机号已更换',
      );
    renderApp(appRoutes, '/console/account-security');
    await screen.findByTestId('phone-form', {}, { timeout: 10_000 });
    expect(screen.getByText('当前密码')).toBeTruthy();
    expect(screen.getByTestId('current-phone').textContent).toContain('13800138000');

    // Nothing is sent without the password.
    type('new-phone', '13900139000');
    type('code-input', '654321');
    fireEvent.click(button('phone-submit'));
    expect(await findText('请输入密码')).toBeTruthy();
    expect(callsTo('/api/user/change-phone')).toHaveLength(0);

    fireEvent.click(button('send-code'));
    await waitFor(() => expect(button('send-code').textContent).toBe('60秒后重新获取'));
    expect(callsTo('/api/auth/send-verification-code')[0]?.body).toEqual({
      phone: '13900139000',
      codeType: 'CHANGE_PHONE',
    });

    type('phone-password', 'Passw0rdOK');
    fireEvent.click(button('phone-submit'));
    expect(await findText('手机号已更换')).toBeTruthy();
    expect(callsTo('/api/user/change-phone')[0]?.body).toEqual({
      password: 'Passw0rdOK',
      newPhone: '13900139000',
      code: '654321',
    });
    // The other sessions ended on the server; this one goes on with the fresh token.
    expect(getSession().token).toBe('fresh-token');
    await waitFor(() => expect(screen.getByTestId('current-phone').textContent).toContain('13900139000'));
    expect((screen.getByTestId('phone-password') as HTMLInputElement).value).toBe('');
  });

  it("shows the server's message on a wrong password and keeps the session", async () => {
    routes['POST /api/user/change-phone'] = () => fail(400, 'auth.current_password_wrong', '当前密码错误');
    renderApp(appRoutes, '/console/account-security');
    await screen.findByTestId('phone-form', {}, { timeout: 10_000 });
    type('phone-password', 'Wrong1234');
    type('new-phone', '13900139000');
    type('code-input', '654321');
    fireEvent.click(button('phone-submit'));
    expect(await findText('当前密码错误')).toBeTruthy();
    expect(getSession().token).toBe('old-token');
  });
});
