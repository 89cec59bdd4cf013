import type { User } from '@gpu/shared/auth';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, restoreApi, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';
import { fakeNotificationsApi, message } from '../test/fake-api';
import MessagesPage from './MessagesPage';

// 消息中心 (issue 31): the paged list, the unread filter, marking one or all read, empty,
// loading-failed states, against a fake of the notification routes.

vi.setConfig({ testTimeout: 30_000 });

let fake: ReturnType<typeof fakeNotificationsApi>;

beforeAll(async () => {
  await import('antd');
}, 60_000);
beforeEach(() => {
  fake = fakeNotificationsApi();
  stubApi(fake.routes, { user: { id: 1, username: 'alice' } as User });
});
afterEach(restoreApi);

const renderPage = () =>
  renderApp([{ path: '/console/messages', element: <MessagesPage /> }], '/console/messages');
const titles = () =>
  screen.queryAllByTestId('notification-item').map((i) => i.querySelector('strong')?.textContent);
const lastListQuery = () => fake.callsTo('GET', '/api/user/notifications').at(-1)?.query;

describe('/console/messages', () => {
  it('lists messages newest first, ten a page, and pages on', async () => {
    fake.state.messages = Array.from({ length: 12 }, (_, i) => message({ id: i + 1, minutesAgo: i + 1 }));
    renderPage();
    await waitFor(() => expect(titles()).toHaveLength(10));
    expect(titles()[0]).toBe('通知 1');
    expect(screen.getByText('共 12 条')).toBeTruthy();
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(titles()).toEqual(['通知 11', '通知 12']));
    expect(lastListQuery()?.get('page')).toBe('2');
    expect(lastListQuery()?.get('size')).toBe('10');
  });

  it('filters the unread ones and marks one read', async () => {
    fake.state.messages = [
      message({ id: 1, title: '充值成功', event: 'recharge_succeeded', minutesAgo: 1 }),
      message({ id: 2, title: '已读的', read: true, minutesAgo: 2 }),
      message({ id: 3, title: '代金券到账', event: 'voucher_received', minutesAgo: 3 }),
    ];
    renderPage();
    await waitFor(() => expect(titles()).toEqual(['充值成功', '已读的', '代金券到账']));
    fireEvent.click(screen.getByRole('tab', { name: '仅看未读（2）' }));
    await waitFor(() => expect(titles()).toEqual(['充值成功', '代金券到账']));
    expect(lastListQuery()?.get('unread')).toBe('true');

    fireEvent.click(screen.getByTestId('message-read-1'));
    await waitFor(() => expect(titles()).toEqual(['代金券到账']));
    expect(fake.callsTo('POST', '/api/user/notifications/read')[0]?.body).toEqual({ ids: [1] });
    expect(screen.getByRole('tab', { name: '仅看未读（1）' })).toBeTruthy();
  });

  it('全部已读 marks everything read and says so; the unread filter is then empty', async () => {
    fake.state.messages = [message({ id: 1 }), message({ id: 2 })];
    renderPage();
    await waitFor(() => expect(titles()).toHaveLength(2));
    fireEvent.click(screen.getByTestId('messages-mark-all'));
    expect(await screen.findByText('已全部标为已读', {}, { timeout: 8_000 })).toBeTruthy();
    await waitFor(() =>
      expect(screen.getAllByTestId('notification-item').map((i) => i.getAttribute('data-read'))).toEqual([
        'true',
        'true',
      ]),
    );
    expect(fake.callsTo('POST', '/api/user/notifications/read')[0]?.body).toEqual({});
    fireEvent.click(screen.getByRole('tab', { name: '仅看未读' }));
    expect((await screen.findByTestId('messages-empty')).textContent).toContain('没有未读消息');
  });

  it('says there are no messages, and offers 重试 when loading failed', async () => {
    fake.state.failures['GET /api/user/notifications'] = fail('服务器开小差了', 500);
    renderPage();
    const alert = await screen.findByTestId('messages-load-failed', {}, { timeout: 8_000 });
    expect(alert.textContent).toContain('消息加载失败');
    delete fake.state.failures['GET /api/user/notifications'];
    fireEvent.click(within(alert).getByRole('button', { name: /重\s*试/ }));
    expect((await screen.findByTestId('messages-empty')).textContent).toContain('暂无消息');
  });
});
