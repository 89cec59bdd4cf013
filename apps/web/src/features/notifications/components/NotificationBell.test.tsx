import type { User } from '@gpu/shared/auth';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok, restoreApi, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';
import { BELL_POLL_MS } from '../api/notifications';
import { fakeNotificationsApi, message } from '../test/fake-api';
import NotificationBell from './NotificationBell';

// The top bar's bell (issue 31) against a fake of the notification routes: the unread count,
// the latest messages, marking one or all read, asking again on focus and every minute.

vi.setConfig({ testTimeout: 30_000 });

let fake: ReturnType<typeof fakeNotificationsApi>;

beforeAll(async () => {
  await import('antd');
}, 60_000);

beforeEach(() => {
  fake = fakeNotificationsApi();
  stubApi(fake.routes, { user: { id: 1, username: 'alice' } as User });
});
afterEach(() => {
  vi.useRealTimers();
  restoreApi();
});

const renderBell = () =>
  renderApp(
    [
      { path: '/console/instance', element: <NotificationBell /> },
      { path: '/console/messages', element: <div data-testid="messages-page" /> },
    ],
    '/console/instance',
  );
const bell = () => screen.getByTestId('notification-bell');
const count = () => bell().querySelector('.ant-badge-count')?.getAttribute('title') ?? null;
const listCalls = () => fake.callsTo('GET', '/api/user/notifications').length;

describe('the notification bell', () => {
  it('shows the unread count, and no badge when everything is read', async () => {
    fake.state.messages = [message({ id: 1 }), message({ id: 2 }), message({ id: 3, read: true })];
    renderBell();
    await waitFor(() => expect(count()).toBe('2'));
    expect(bell().getAttribute('aria-label')).toBe('消息通知，2 条未读');
    // One small request: the latest few, with the account's unread count.
    expect(fake.state.calls[0]?.query.get('size')).toBe('6');
    expect(fake.state.calls[0]?.query.has('unread')).toBe(false);
  });

  it('lists the latest messages with the time in Asia/Shanghai; 全部已读 clears the count', async () => {
    fake.state.messages = [
      message({ id: 1, title: '余额不足提醒', body: '可用余额 ¥8.00，约可用 3 小时', minutesAgo: 5 }),
      message({ id: 2, event: 'admin_action', title: '实例已被管理员强制停止', minutesAgo: 10, read: true }),
    ];
    renderBell();
    await waitFor(() => expect(count()).toBe('1'));
    fireEvent.click(bell());
    const panel = await screen.findByTestId('bell-panel');
    const items = within(panel).getAllByTestId('notification-item');
    expect(items.map((i) => within(i).getByText(/提醒|停止/).textContent)).toEqual([
      '余额不足提醒',
      '实例已被管理员强制停止',
    ]);
    // 05:55 UTC is 13:55 in Shanghai.
    expect(items[0]?.textContent).toContain('2026-11-26 13:55');
    expect(items[0]?.textContent).toContain('余额不足');
    expect(items[0]?.getAttribute('data-read')).toBe('false');
    expect(items[1]?.textContent).toContain('管理员操作');
    expect(within(panel).getByTestId('bell-view-all').getAttribute('href')).toBe('/console/messages');

    fireEvent.click(within(panel).getByTestId('bell-mark-all'));
    await waitFor(() => expect(count()).toBeNull());
    expect(fake.callsTo('POST', '/api/user/notifications/read')[0]?.body).toEqual({});
    expect(bell().getAttribute('aria-label')).toBe('消息通知');
  });

  it('marks one message read from the list', async () => {
    fake.state.messages = [message({ id: 7, minutesAgo: 1 }), message({ id: 8, minutesAgo: 2 })];
    renderBell();
    await waitFor(() => expect(count()).toBe('2'));
    fireEvent.click(bell());
    fireEvent.click(await screen.findByTestId('bell-read-7'));
    await waitFor(() => expect(count()).toBe('1'));
    expect(fake.callsTo('POST', '/api/user/notifications/read')[0]?.body).toEqual({ ids: [7] });
    expect(screen.queryByTestId('bell-read-7')).toBeNull();
    expect(screen.getByTestId('bell-read-8')).toBeTruthy();
  });

  it('takes the keyboard into the panel when it opens, and Escape brings it back to the bell', async () => {
    fake.state.messages = [message({ id: 31 })];
    renderBell();
    await waitFor(() => expect(count()).toBe('1'));
    bell().focus();
    fireEvent.click(bell());
    const panel = await screen.findByTestId('bell-panel');
    await waitFor(() => expect(document.activeElement).toBe(panel));
    expect(bell().getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(panel, { key: 'Escape' });
    await waitFor(() => expect(bell().getAttribute('aria-expanded')).toBe('false'));
    expect(document.activeElement).toBe(bell());
  });

  it('says so when there are no messages', async () => {
    renderBell();
    await waitFor(() => expect(listCalls()).toBe(1));
    fireEvent.click(bell());
    expect((await screen.findByTestId('bell-panel')).textContent).toContain('暂无消息');
    expect((screen.getByTestId('bell-mark-all') as HTMLButtonElement).disabled).toBe(true);
  });

  it('asks again when the window gets focus, and every minute', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderBell();
    await waitFor(() => expect(count()).toBeNull());
    await waitFor(() => expect(listCalls()).toBe(1));

    fake.state.messages = [message({ id: 21 })];
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(count()).toBe('1'));
    expect(listCalls()).toBe(2);

    fake.state.messages.push(message({ id: 22 }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(BELL_POLL_MS);
    });
    await waitFor(() => expect(count()).toBe('2'));
    expect(listCalls()).toBe(3);
  });

  it('an idle-shutdown warning carries 保持运行 while the shutdown is still announced', async () => {
    fake.state.messages = [
      message({ id: 1, event: 'idle_shutdown_warning', title: '实例即将因GPU空闲自动关机', instanceId: 7 }),
      message({ id: 2, event: 'idle_shutdown_warning', title: '早先的提醒', instanceId: 8, read: true }),
    ];
    const kept: string[] = [];
    const routes = fake.routes;
    restoreApi();
    stubApi(
      (url, init) => {
        if (url.pathname === '/api/gpu/auto-shutdown')
          return ok([{ instanceId: 7, kind: 'idle', warned: true, shutdownAt: '2026-11-26T06:10:00.000Z' }]);
        if (url.pathname === '/api/gpu/instance/7/auto-shutdown/keep-running') {
          kept.push(init?.method ?? 'GET');
          return ok({});
        }
        return routes(url, init);
      },
      { user: { id: 1, username: 'alice' } as User },
    );
    renderBell();
    await waitFor(() => expect(count()).toBe('1'));
    fireEvent.click(bell());
    const button = await screen.findByTestId('notice-keep-running-7');
    // Instance 8's shutdown is no longer announced: no button on its old warning.
    expect(screen.queryByTestId('notice-keep-running-8')).toBeNull();
    fireEvent.click(button);
    await waitFor(() => expect(kept).toEqual(['POST']));
  });
});
