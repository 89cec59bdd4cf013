import type { User } from '@gpu/shared/auth';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appRoutes } from '../../../app/router';
import { type ApiAnswer, fail, restoreApi, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';
import { DOC_FIXTURE } from '../test-fixture';

vi.setConfig({ testTimeout: 30_000 });

// /console/api-docs (issue 32): the OpenAPI document, fetched with the session, grouped and searchable.

const USER = { id: 7, tenantId: 1, username: '13800138000', phone: '13800138000' } as User;

function open(docAnswer: ApiAnswer) {
  const fetch = stubApi((url) => (url.pathname === '/api/docs/json' ? docAnswer : undefined), { user: USER });
  renderApp(appRoutes, '/console/api-docs');
  return fetch;
}
afterEach(restoreApi);

const expand = async (key: string) => {
  fireEvent.click(await screen.findByTestId(`api-op-${key}`, {}, { timeout: 10_000 }));
  return screen.findByTestId(`api-op-detail-${key}`, {}, { timeout: 5_000 });
};

describe('API 文档 page', () => {
  it('fetches the document with the session and shows groups, access, parameters, examples and errors', async () => {
    const fetch = open({ status: 200, body: DOC_FIXTURE });
    const instances = await screen.findByTestId('api-group-instances', {}, { timeout: 10_000 });
    const init = fetch.mock.calls.find(([url]) => String(url).includes('/api/docs/json'))?.[1];
    expect(((init?.headers ?? {}) as Record<string, string>).Authorization).toBe('Bearer tok');

    expect(instances.textContent).toContain('创建、开关机、释放容器实例');
    expect(instances.textContent).toContain('2 个接口');
    expect(screen.getByTestId('api-group-billing').textContent).toContain('余额、账单与充值');
    expect(screen.queryByTestId('api-group-empty')).toBeNull();
    // Untagged operations come last under 其他; the session-only one says a token cannot call it.
    const other = screen.getByTestId('api-group-untagged');
    expect(other.textContent).toContain('其他');
    expect(other.textContent).toContain('仅限登录控制台，不可使用令牌');

    // The introduction renders its Markdown as elements, never as HTML.
    fireEvent.click(within(screen.getByTestId('api-docs-intro')).getByText(/概述/));
    const intro = await screen.findByText('认证', { selector: 'h3' });
    expect(intro).toBeTruthy();
    expect(screen.getByText('只显示一次', { selector: 'strong' })).toBeTruthy();
    expect(screen.getByText('instances.not_found', { selector: 'td code' })).toBeTruthy();

    const release = await expand('POST /api/gpu/instance/release');
    expect(within(release).getByTestId('api-op-sample').textContent).toBe(
      'curl -X POST https://gpu.example/api/gpu/instance/release',
    );
    expect(release.textContent).toContain('释放后数据无法恢复。');
    expect(release.textContent).toContain('所需权限：实例管理');
    expect(within(release).getByTestId('api-op-request').textContent).toBe(
      JSON.stringify({ instanceId: 42 }, null, 2),
    );
    const errors = within(release).getByTestId('api-op-errors');
    expect(errors.textContent).toContain('instances.not_found');
    expect(errors.textContent).toContain('实例不存在');
    expect(errors.textContent).toContain('403');

    const list = await expand('GET /api/gpu/instances');
    expect(list.textContent).toContain('所需权限：只读');
    const params = within(list).getByTestId('api-op-params');
    expect(params.textContent).toContain('page');
    expect(params.textContent).toContain('查询');
    expect(params.textContent).toContain('页码');
    expect(params.textContent).toContain('"RUNNING" | "STOPPED"');
    expect(within(list).getByTestId('api-op-response').textContent).toContain('"total": 0');

    // No access, no example, no errors: the fields of the schema, 未注明, no error table.
    const balance = await expand('GET /api/user/balance');
    expect(balance.textContent).toContain('所需权限：未注明');
    expect(within(balance).getByTestId('api-op-response-fields').textContent).toContain('可用余额（分）');
    expect(within(balance).queryByTestId('api-op-errors')).toBeNull();
  });

  it('filters by path or summary, and says when nothing matches', async () => {
    open({ status: 200, body: DOC_FIXTURE });
    await screen.findByTestId('api-group-instances', {}, { timeout: 10_000 });
    const search = screen.getByPlaceholderText('搜索路径或说明');
    fireEvent.change(search, { target: { value: '余额' } });
    await waitFor(() => expect(screen.queryByTestId('api-group-instances')).toBeNull());
    expect(screen.getByTestId('api-group-billing')).toBeTruthy();
    expect(screen.queryByTestId('api-op-POST /api/gpu/instance/release')).toBeNull();

    fireEvent.change(search, { target: { value: '/instance/release' } });
    await screen.findByTestId('api-op-POST /api/gpu/instance/release');
    expect(screen.queryByTestId('api-op-GET /api/gpu/instances')).toBeNull();

    fireEvent.change(search, { target: { value: 'no-such-route' } });
    expect(await screen.findByText('没有匹配的接口')).toBeTruthy();
  });

  it('says the documentation is not open when the server does not serve it', async () => {
    open(fail('接口不存在', 404));
    expect(await screen.findByText('API 文档暂未开放', {}, { timeout: 10_000 })).toBeTruthy();
  });

  it('offers a retry when loading fails', async () => {
    open(fail('服务器错误', 500));
    expect(await screen.findByText('API 文档加载失败', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
  });
});
