import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appRoutes } from '../../../app/router';
import { configureApiClient } from '../../../lib/api-client';
import { clearUserSession, getSession } from '../../../lib/session';
import { adminFixture } from '../../../test/admin-fixture';
import { renderApp } from '../../../test/render-app';

vi.setConfig({ testTimeout: 30_000 });

type Answer = { status?: number; body: unknown };
type Handler = (url: URL, body: unknown) => Answer | Promise<Answer>;

const ok = (data: unknown, message = '成功') => ({ body: { success: true, code: '200', message, data } });
const fail = (status: number, code: string, message: string) => ({
  status,
  body: { success: false, code, message, data: null },
});

let routes: Record<string, Handler>;
let calls: { method: string; path: string; body: unknown }[];

beforeEach(() => {
  // The memory router stands in for the browser; the 401 rule's page change is not tested here.
  configureApiClient({ navigate: () => {} });
  calls = [];
  routes = {};
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      const method = init?.method ?? 'GET';
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, path: url.pathname, body });
      const handler = routes[`${method} ${url.pathname}`];
      if (!handler) return new Response(JSON.stringify(fail(404, '404', '接口不存在').body), { status: 404 });
      const answer = await handler(url, body);
      return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearUserSession();
});

const renderAt = (path: string) => renderApp(appRoutes, path);

const here = (router: ReturnType<typeof renderAt>) =>
  router.state.location.pathname + router.state.location.search;

const type = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });

/** The first render loads the lazy page (slow in jsdom the first time). */
const findTestId = (id: string) => screen.findByTestId(id, {}, { timeout: 10_000 });
/** Toasts load antd's message on first use, which takes a while in jsdom. */
const findText = (text: string) => screen.findByText(text, {}, { timeout: 5_000 });
const authCalls = () => calls.filter((c) => c.path.startsWith('/api/auth/'));

const inputOf = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
const button = (testId: string) => screen.getByTestId(testId) as HTMLButtonElement;

describe('login page', () => {
  it('prefills ?phone=, carries it to forgot password and warns on an incomplete form', async () => {
    renderAt('/login?phone=13800138000&redirect=%2Fuser');
    await findTestId('login-form');
    expect(inputOf('phone-input').value).toBe('13800138000');
    expect(inputOf('phone-input').maxLength).toBe(11);
    expect(screen.getByTestId('forgot-link').getAttribute('href')).toBe(
      '/forgot-password?phone=13800138000&redirect=%2Fuser',
    );
    expect(screen.getByTestId('register-link').getAttribute('href')).toBe('/register?redirect=%2Fuser');
    fireEvent.click(button('login-submit'));
    expect(await findText('请填写完整的登录信息')).toBeTruthy();
    expect(await findText('请输入密码')).toBeTruthy();
    expect(authCalls()).toHaveLength(0);
  });

  it('shows the server message on failure, then logs in and goes to the redirect query', async () => {
    let attempt = 0;
    routes['POST /api/auth/login'] = () =>
      attempt++ === 0
        ? fail(401, 'auth.bad_credentials', '手机号或密码错误')
        : ok({ accessToken: 'tok', user: { id: 1, username: 'alice' } }, '欢迎回来，alice');
    const router = renderAt('/login?redirect=%2Fuser');
    await findTestId('login-form');
    type('phone-input', '13800138000');
    type('password-input', 'secret1');
    fireEvent.click(button('login-submit'));
    expect(await findText('手机号或密码错误')).toBeTruthy();
    expect(here(router)).toBe('/login?redirect=%2Fuser');

    fireEvent.click(screen.getByTestId('remember-me'));
    fireEvent.click(button('login-submit'));
    expect(await findText('欢迎回来，alice')).toBeTruthy();
    await waitFor(() => expect(here(router)).toBe('/user'));
    expect(authCalls().at(-1)?.body).toEqual({ phone: '13800138000', password: 'secret1', rememberMe: true });
    expect(window.localStorage.getItem('gpu.token')).toBe('tok');
  });

  it('sends one login however often Enter is pressed while it is under way', async () => {
    let answer: (v: Answer) => void = () => {};
    routes['POST /api/auth/login'] = () => new Promise<Answer>((resolve) => (answer = resolve));
    const router = renderAt('/login');
    await findTestId('login-form');
    type('phone-input', '13800138000');
    type('password-input', 'secret1');
    fireEvent.submit(screen.getByTestId('login-form'));
    await waitFor(() => expect(button('login-submit').className).toContain('ant-btn-loading'));
    fireEvent.submit(screen.getByTestId('login-form'));
    fireEvent.submit(screen.getByTestId('login-form'));
    await new Promise((r) => setTimeout(r, 50));
    answer(ok({ accessToken: 'tok', user: { id: 1, username: 'alice' } }, '欢迎回来，alice'));
    await waitFor(() => expect(here(router)).toBe('/market'));
    expect(authCalls().filter((c) => c.path === '/api/auth/login')).toHaveLength(1);
  });

  it('says 登录失败，请稍后重试 when no answer comes', async () => {
    routes['POST /api/auth/login'] = () => Promise.reject(new TypeError('offline'));
    renderAt('/login');
    await findTestId('login-form');
    type('phone-input', '13800138000');
    type('password-input', 'secret1');
    fireEvent.click(button('login-submit'));
    expect(await findText('登录失败，请稍后重试')).toBeTruthy();
    expect(getSession().token).toBeNull();
  });
});

describe('register page', () => {
  it('checks the phone, sends the code, shows the test code and registers', async () => {
    routes['GET /api/auth/check-phone'] = (url) =>
      ok({ available: url.searchParams.get('phone') !== '13900000000' });
    routes['POST /api/auth/send-verification-code'] = () => ok({ code: '654321' }, '验证码发送成功');
    routes['POST /api/auth/register'] = () => ok({ id: 2 }, '注册成功，请登录');
    const router = renderAt('/register');
    await findTestId('register-form');
    expect(button('send-code').disabled).toBe(true);
    expect(button('register-submit').disabled).toBe(true);

    type('phone-input', '13900000000');
    await waitFor(() => expect(screen.getByTestId('phone-hint').dataset.state).toBe('taken'));
    expect(button('send-code').disabled).toBe(true);

    type('phone-input', '13800138000');
    await waitFor(() => expect(screen.getByTestId('phone-hint').dataset.state).toBe('available'));
    expect(screen.getByText('该手机号可以注册')).toBeTruthy();
    expect(button('send-code').disabled).toBe(false);

    fireEvent.click(button('send-code'));
    expect(await findText('测试环境验证码：654321')).toBeTruthy();
    expect(await findText('验证码发送成功')).toBeTruthy();
    await waitFor(() => expect(button('send-code').textContent).toBe('60秒后重新获取'));
    expect(button('send-code').disabled).toBe(true);
    expect(calls.find((c) => c.path === '/api/auth/send-verification-code')?.body).toEqual({
      phone: '13800138000',
      codeType: 'REGISTER',
    });

    type('code-input', '654321');
    type('password-input', 'abc');
    const meter = await findTestId('password-strength');
    expect(meter.textContent).toContain('密码强度：弱');
    expect(meter.textContent).toContain('还需包含：至少6个字符、数字、大写字母');
    type('password-input', 'Passw0rd');
    await waitFor(() =>
      expect(screen.getByTestId('password-strength').textContent).toContain('密码强度：强'),
    );
    type('confirm-input', 'Passw0rd');
    expect(button('register-submit').disabled).toBe(true);
    fireEvent.click(screen.getByTestId('agreement'));
    await waitFor(() => expect(button('register-submit').disabled).toBe(false));
    type('confirm-input', 'Passw0rd1');
    await waitFor(() => expect(button('register-submit').disabled).toBe(true));
    expect(await findText('两次输入的密码不一致')).toBeTruthy();
    type('confirm-input', 'Passw0rd');
    await waitFor(() => expect(button('register-submit').disabled).toBe(false));

    fireEvent.click(button('register-submit'));
    expect(await findText('注册成功，请登录')).toBeTruthy();
    await waitFor(() => expect(here(router)).toBe('/login?phone=13800138000'));
    expect(calls.find((c) => c.path === '/api/auth/register')?.body).toEqual({
      phone: '13800138000',
      verificationCode: '654321',
      password: 'Passw0rd',
      confirmPassword: 'Passw0rd',
    });
  });

  it('says the phone check failed and lets the user check again', async () => {
    let failing = true;
    routes['GET /api/auth/check-phone'] = () =>
      failing ? Promise.reject(new TypeError('offline')) : ok({ available: true });
    renderAt('/register?phone=13800138000');
    await findTestId('register-form');
    await waitFor(() => expect(screen.getByTestId('phone-hint').dataset.state).toBe('unknown'));
    expect(await findText('检查手机号失败，请稍后重试')).toBeTruthy();
    expect(button('send-code').disabled).toBe(true);
    failing = false;
    fireEvent.click(screen.getByText('重新检查'));
    await waitFor(() => expect(screen.getByTestId('phone-hint').dataset.state).toBe('available'));
  });

  it('shows the under-development message for the agreement links without ticking the box', async () => {
    renderAt('/register');
    await findTestId('register-form');
    fireEvent.click(screen.getByText('《用户协议》'));
    expect(await findText('该功能正在开发中，敬请期待')).toBeTruthy();
    expect((screen.getByTestId('agreement') as HTMLInputElement).checked).toBe(false);
  });
});

describe('forgot password page', () => {
  it('warns about an invalid phone, resets and goes to /login 1.5 s later', async () => {
    routes['POST /api/auth/send-reset-password-code'] = () => ok({ code: '111222' }, '验证码发送成功');
    routes['POST /api/auth/reset-password'] = () => ok(null, '密码重置成功，请使用新密码登录');
    const router = renderAt('/forgot-password?phone=1380013');
    await findTestId('reset-form');
    expect(inputOf('phone-input').value).toBe('1380013');
    fireEvent.click(button('send-code'));
    expect(await findText('请输入正确的手机号')).toBeTruthy();
    expect(authCalls()).toHaveLength(0);

    type('phone-input', '13800138000');
    fireEvent.click(button('send-code'));
    expect(await findText('测试环境验证码：111222')).toBeTruthy();
    await waitFor(() => expect(button('send-code').textContent).toBe('60秒后重新获取'));

    type('code-input', '111222');
    type('password-input', 'x'.repeat(17));
    expect(await findText('新密码长度为6-16位')).toBeTruthy();
    // Composed as at registration: 6–16 is only the length rule.
    type('password-input', 'newpass1');
    expect(await findText('密码必须包含大写字母、小写字母和数字')).toBeTruthy();
    type('password-input', 'NewPass1');
    type('confirm-input', 'NewPass1');

    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      fireEvent.click(button('reset-submit'));
      expect(await findText('密码重置成功，请使用新密码登录')).toBeTruthy();
      expect(here(router)).toBe('/forgot-password?phone=1380013');
      await act(() => vi.advanceTimersByTimeAsync(1_500));
      await waitFor(() => expect(here(router)).toBe('/login?phone=13800138000'));
    } finally {
      vi.useRealTimers();
    }
    expect(calls.find((c) => c.path === '/api/auth/reset-password')?.body).toEqual({
      phone: '13800138000',
      code: '111222',
      newPassword: 'NewPass1',
    });
  });

  it('shows the server message (a 429 names the wait) and counts that wait down', async () => {
    routes['POST /api/auth/send-reset-password-code'] = () =>
      fail(429, 'auth.code_cooldown', '验证码发送过于频繁，请42秒后再试');
    renderAt('/forgot-password?phone=13800138000');
    await findTestId('reset-form');
    fireEvent.click(button('send-code'));
    expect(await findText('验证码发送过于频繁，请42秒后再试')).toBeTruthy();
    await waitFor(() => expect(button('send-code').textContent).toBe('42秒后重新获取'));
  });
});

describe('admin login page', () => {
  it('shows the server message, then stores the admin and goes to the redirect query', async () => {
    let attempt = 0;
    routes['POST /api/admin/auth/login'] = () =>
      attempt++ === 0
        ? fail(401, 'auth.bad_admin_credentials', '用户名或密码错误')
        : ok({ token: 'adm', admin: adminFixture() }, '登录成功');
    routes['GET /api/admin/auth/me'] = () => ok(adminFixture());
    const router = renderAt('/admin/login?redirect=%2Fadmin%2Ftenants');
    await findTestId('admin-login-form');
    type('username-input', 'admin');
    type('password-input', 'wrong');
    fireEvent.click(button('admin-login-submit'));
    expect(await findText('用户名或密码错误')).toBeTruthy();
    fireEvent.click(button('admin-login-submit'));
    await waitFor(() => expect(here(router)).toBe('/admin/tenants'));
    expect(getSession().admin?.username).toBe('admin');
  });
});
