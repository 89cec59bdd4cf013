import type { AccessToken } from '@gpu/shared/access-tokens';
import { ACCESS_TOKENS_PER_USER } from '@gpu/shared/access-tokens';
import type { User } from '@gpu/shared/auth';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appRoutes } from '../../../app/router';
import { fail, ok, restoreApi, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';

vi.setConfig({ testTimeout: 30_000 });

// 账号安全 → API令牌 (issue 32) against a fake API: create (shown once), list, revoke, field errors.

const USER = { id: 7, tenantId: 1, username: '13800138000', phone: '13800138000' } as User;
const SECRET = `gpu_AbCd${'x'.repeat(39)}`;
const DAY = 86_400_000;

const token = (over: Partial<AccessToken> = {}): AccessToken => ({
  id: 1,
  name: '训练脚本',
  prefix: 'gpu_AbCd',
  scopes: ['read'],
  createdAt: '2026-11-20T02:00:00.000Z',
  expiresAt: new Date(Date.now() + 30 * DAY).toISOString(),
  lastUsedAt: null,
  lastUsedIp: null,
  ...over,
});

let tokens: AccessToken[];
let calls: { method: string; path: string; body: unknown }[];
let createAnswer: (body: unknown) => ReturnType<typeof ok>;

// antd, the console layout, the page and the card are lazy chunks: transformed once here, not
// inside the first test's wait (a loaded machine took more than its 10 s).
beforeAll(async () => {
  await import('../../../app/antd-providers');
  await import('../../../app/layouts/ConsoleLayout');
  await import('../pages/AccountSecurityPage');
  await import('./AccessTokensCard');
}, 60_000);

beforeEach(() => {
  tokens = [];
  calls = [];
  createAnswer = (body) => {
    const b = body as { name: string; scopes: AccessToken['scopes'] };
    const made = token({ id: 5, name: b.name, scopes: b.scopes });
    tokens = [...tokens, made];
    return ok({ ...made, token: SECRET });
  };
  stubApi(
    (url, init) => {
      const method = init?.method ?? 'GET';
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, path: url.pathname, body });
      if (url.pathname === '/api/user/sign-ins' || url.pathname === '/api/user/ssh-keys') return ok([]);
      if (url.pathname === '/api/user/access-tokens' && method === 'GET') return ok(tokens);
      if (url.pathname === '/api/user/access-tokens' && method === 'POST') return createAnswer(body);
      const del = /^\/api\/user\/access-tokens\/(\d+)$/.exec(url.pathname);
      if (del && method === 'DELETE') {
        tokens = tokens.filter((k) => k.id !== Number(del[1]));
        return { status: 200, body: { success: true, code: '200', message: '令牌已撤销', data: null } };
      }
      return undefined;
    },
    { user: USER },
  );
});
afterEach(restoreApi);

const card = () => screen.findByTestId('access-tokens', {}, { timeout: 10_000 });
const callsOf = (method: string) =>
  calls.filter((c) => c.method === method && c.path.startsWith('/api/user/access-tokens'));
const findText = (text: string) => screen.findByText(text, {}, { timeout: 5_000 });

describe('API令牌 card', () => {
  it('creates a token with the chosen scopes, shows it once with its usage, then lists it without the secret', async () => {
    renderApp(appRoutes, '/console/account-security');
    await within(await card()).findByText('还没有API令牌');

    fireEvent.click(screen.getByTestId('access-token-add'));
    const form = await screen.findByTestId('access-token-form');
    // read is ticked by default; each scope says what it allows.
    const read = screen.getByTestId('access-token-scope-read') as HTMLInputElement;
    expect(read.checked).toBe(true);
    expect(form.textContent).toContain('创建、开关机、修改和释放实例');
    expect(form.textContent).toContain('充值、使用代金券、设置消费上限');
    expect(form.textContent).toContain('90 天');

    fireEvent.change(screen.getByTestId('access-token-name'), { target: { value: '训练脚本' } });
    fireEvent.click(screen.getByTestId('access-token-scope-instances'));
    fireEvent.click(document.getElementById('access-token-submit') as HTMLElement);

    const created = await screen.findByTestId('access-token-created', {}, { timeout: 5_000 });
    expect(callsOf('POST')[0]?.body).toEqual({
      name: '训练脚本',
      scopes: ['read', 'instances'],
      expiresInDays: 90,
    });
    expect(screen.getByTestId('access-token-value').textContent).toBe(SECRET);
    expect(created.textContent).toContain('将无法再次查看');
    expect(created.textContent).toContain(
      `curl -H "Authorization: Bearer ${SECRET}" ${window.location.origin}/api/user/balance`,
    );
    expect(created.textContent).toContain(`gpu login --api ${window.location.origin} --token ${SECRET}`);

    fireEvent.click(screen.getByTestId('access-token-done'));
    await waitFor(() => expect(screen.queryByTestId('access-token-value')).toBeNull());
    // The secret is gone from the page; the list shows the prefix and the scopes.
    const row = await screen.findByTestId('access-token-5', {}, { timeout: 5_000 });
    expect(row.textContent).toContain('训练脚本');
    expect(row.textContent).toContain('gpu_AbCd…');
    expect(row.textContent).toContain('只读');
    expect(row.textContent).toContain('实例管理');
    expect(row.textContent).toContain('从未使用');
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('says what is wrong in the form and sends nothing', async () => {
    renderApp(appRoutes, '/console/account-security');
    await card();
    fireEvent.click(screen.getByTestId('access-token-add'));
    await screen.findByTestId('access-token-form');
    fireEvent.click(screen.getByTestId('access-token-scope-read'));
    fireEvent.click(document.getElementById('access-token-submit') as HTMLElement);
    expect(await findText('请填写令牌名称')).toBeTruthy();
    expect(await findText('请至少选择一项权限')).toBeTruthy();
    expect(callsOf('POST')).toHaveLength(0);
  });

  it("shows the server's message when it refuses (the limit) and keeps the dialog", async () => {
    createAnswer = () => fail(`最多可创建 ${ACCESS_TOKENS_PER_USER} 个令牌`, 409);
    renderApp(appRoutes, '/console/account-security');
    await card();
    fireEvent.click(screen.getByTestId('access-token-add'));
    await screen.findByTestId('access-token-form');
    fireEvent.change(screen.getByTestId('access-token-name'), { target: { value: '多余的' } });
    fireEvent.click(document.getElementById('access-token-submit') as HTMLElement);
    expect(await findText(`最多可创建 ${ACCESS_TOKENS_PER_USER} 个令牌`)).toBeTruthy();
    expect(screen.queryByTestId('access-token-created')).toBeNull();
    expect(screen.getByTestId('access-token-form')).toBeTruthy();
  });

  it('blocks a new token at the limit (expired ones do not count)', async () => {
    tokens = Array.from({ length: ACCESS_TOKENS_PER_USER }, (_, i) => token({ id: i + 1, name: `t${i}` }));
    tokens.push(token({ id: 99, name: '旧的', expiresAt: new Date(Date.now() - DAY).toISOString() }));
    renderApp(appRoutes, '/console/account-security');
    const c = await card();
    await within(c).findByText('旧的');
    expect((screen.getByTestId('access-token-add') as HTMLButtonElement).disabled).toBe(true);
    expect(c.textContent).toContain(`已有 ${ACCESS_TOKENS_PER_USER}/${ACCESS_TOKENS_PER_USER} 个`);
    expect(c.textContent).toContain('请先撤销不用的令牌');
    expect(screen.getByTestId('access-token-99').textContent).toContain('已过期');
    expect(screen.getByTestId('access-token-1').textContent).not.toContain('已过期');
  });

  it('shows the last use in Beijing time with the address, and revokes only after a confirmation', async () => {
    tokens = [
      token({
        id: 3,
        name: 'CI',
        scopes: ['read', 'billing'],
        lastUsedAt: '2026-11-25T16:30:00.000Z',
        lastUsedIp: '203.0.113.9',
      }),
    ];
    renderApp(appRoutes, '/console/account-security');
    const row = await screen.findByTestId('access-token-3', {}, { timeout: 10_000 });
    expect(row.textContent).toContain('2026-11-26 00:30:00 · 203.0.113.9');
    expect(row.textContent).toContain('费用');

    fireEvent.click(screen.getByTestId('access-token-revoke-3'));
    expect(await findText('撤销令牌“CI”？')).toBeTruthy();
    expect(document.body.textContent).toContain('正在使用它的脚本和命令行会马上无法调用 API');
    expect(callsOf('DELETE')).toHaveLength(0);
    const pop = document.querySelector('.ant-popconfirm') as HTMLElement;
    fireEvent.click(within(pop).getByRole('button', { name: '撤销' }));
    expect(await findText('令牌已撤销')).toBeTruthy();
    expect(callsOf('DELETE')[0]?.path).toBe('/api/user/access-tokens/3');
    await within(await card()).findByText('还没有API令牌');
  });
});
