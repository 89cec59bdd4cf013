import type { User } from '@gpu/shared/auth';
import { NOTIFICATION_EVENTS, type NotificationSettings } from '@gpu/shared/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, restoreApi, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';
import { fakeNotificationsApi } from '../test/fake-api';
import NotificationSettingsPage from './NotificationSettingsPage';

// 通知设置 (issue 31): the events × channels matrix and the low-balance threshold, saved with a
// message; webhooks added (URL checked, the secret shown once), tested and deleted.

vi.setConfig({ testTimeout: 30_000 });

let fake: ReturnType<typeof fakeNotificationsApi>;
const PATH = '/console/notification-settings';

beforeAll(async () => {
  await import('antd');
}, 60_000);
beforeEach(() => {
  fake = fakeNotificationsApi();
  fake.state.settings = {
    channels: {
      low_balance: ['site', 'sms'],
      idle_shutdown: ['site', 'webhook'],
    } as NotificationSettings['channels'],
    lowBalanceThreshold: 10,
  };
  stubApi(fake.routes, { user: { id: 1, username: 'alice' } as User });
});
afterEach(restoreApi);

const renderPage = (query = '') =>
  renderApp([{ path: PATH, element: <NotificationSettingsPage /> }], PATH + query);
/** The input behind a test id (antd puts it on the input, or on a wrapper around it). */
const inputOf = (testId: string) => {
  const el = screen.getByTestId(testId);
  return (el.tagName === 'INPUT' ? el : el.querySelector('input')) as HTMLInputElement;
};
/** Toasts load antd's message on first use: slow in jsdom on a loaded machine. */
const findText = (text: string) => screen.findByText(text, {}, { timeout: 8_000 });
const box = (event: string, channel: string) => inputOf(`channel-${event}-${channel}`);

describe('notification channels', () => {
  it('shows every event with 站内信 always on, and saves the changed channels and threshold', async () => {
    renderPage();
    await screen.findByTestId('notification-settings', {}, { timeout: 8_000 });
    for (const event of NOTIFICATION_EVENTS) {
      expect(box(event, 'site').checked).toBe(true);
      expect(box(event, 'site').disabled).toBe(true);
    }
    expect(screen.getByTestId('settings-row-spending_cap_shutdown').textContent).toContain('消费上限关机');
    expect(box('low_balance', 'sms').checked).toBe(true);
    expect(box('idle_shutdown', 'webhook').checked).toBe(true);
    expect(box('arrears_stop', 'sms').checked).toBe(false);

    fireEvent.click(box('low_balance', 'sms'));
    fireEvent.click(box('arrears_stop', 'sms'));
    fireEvent.click(box('arrears_stop', 'webhook'));
    const threshold = inputOf('low-balance-threshold');
    fireEvent.change(threshold, { target: { value: '25.5' } });
    fireEvent.blur(threshold);
    fireEvent.click(screen.getByTestId('settings-save'));

    expect(await findText('通知设置已保存')).toBeTruthy();
    const sent = fake.callsTo('PUT', '/api/user/notification-settings')[0]?.body as NotificationSettings;
    expect(sent.lowBalanceThreshold).toBe(25.5);
    expect(sent.channels.low_balance).toEqual(['site']);
    expect(sent.channels.arrears_stop).toEqual(['site', 'sms', 'webhook']);
    expect(sent.channels.idle_shutdown).toEqual(['site', 'webhook']);
    // Every event is sent, each with 站内信.
    expect(Object.keys(sent.channels).sort()).toEqual([...NOTIFICATION_EVENTS].sort());
  });

  it("shows the server's message when saving fails, and sends nothing without a threshold", async () => {
    fake.state.failures['PUT /api/user/notification-settings'] = fail('余额预警阈值不能超过 100000 元', 422);
    renderPage();
    await screen.findByTestId('notification-settings', {}, { timeout: 8_000 });
    fireEvent.click(screen.getByTestId('settings-save'));
    expect(await findText('余额预警阈值不能超过 100000 元')).toBeTruthy();

    const threshold = inputOf('low-balance-threshold');
    fireEvent.change(threshold, { target: { value: '' } });
    fireEvent.blur(threshold);
    expect(await findText('请输入余额预警阈值')).toBeTruthy();
    fireEvent.click(screen.getByTestId('settings-save'));
    await new Promise((r) => setTimeout(r, 300));
    expect(fake.callsTo('PUT', '/api/user/notification-settings')).toHaveLength(1);
  });
});

describe('webhooks', () => {
  const openWebhooks = async () => {
    renderPage('?tab=webhooks');
    return screen.findByTestId('webhook-add-form', {}, { timeout: 8_000 });
  };
  const typeUrl = (value: string) =>
    fireEvent.change(screen.getByTestId('webhook-url-input'), { target: { value } });

  it('checks the address, adds it, shows the secret once and lists it masked', async () => {
    await openWebhooks();
    expect(await screen.findByTestId('webhooks-empty')).toBeTruthy();
    expect(screen.getByTestId('webhook-verify-help').textContent).toContain('X-Gpu-Signature');
    expect(screen.getByTestId('webhook-verify-help').textContent).toContain('createHmac');

    // (One message per form here: antd's error list in jsdom keeps the first one it showed.)
    typeUrl('ftp://example.com/hook');
    fireEvent.click(screen.getByTestId('webhook-add'));
    expect(await findText('请输入以 http:// 或 https:// 开头的有效地址')).toBeTruthy();
    expect(fake.callsTo('POST', '/api/user/webhooks')).toHaveLength(0);

    typeUrl(' https://hooks.example.com/gpu ');
    fireEvent.click(screen.getByTestId('webhook-add'));
    const secret = await screen.findByTestId('webhook-secret', {}, { timeout: 8_000 });
    expect(secret.textContent).toBe('whsec_5d1c0e7b2a9f44c1b8e63f9a');
    expect(fake.callsTo('POST', '/api/user/webhooks')[0]?.body).toEqual({
      url: 'https://hooks.example.com/gpu',
    });

    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fireEvent.click(screen.getByTestId('webhook-secret-copy'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('whsec_5d1c0e7b2a9f44c1b8e63f9a'));
    fireEvent.click(screen.getByTestId('webhook-secret-done'));
    // Closed: hidden, or already dropped from the page (destroyOnHidden) once its animation ended.
    await waitFor(() => {
      const wrap = screen.queryByTestId('webhook-secret')?.closest('.ant-modal-wrap');
      expect(wrap ? wrap.getAttribute('style') : 'display: none').toContain('display: none');
    });
    const card = await screen.findByTestId('webhook-100');
    expect(within(card).getByTestId('webhook-url').textContent).toBe('https://hooks.example.com/gpu');
    expect(within(card).getByTestId('webhook-secret-hint').textContent).toBe('whsec_****3f9a');
    expect(card.textContent).toContain('已启用');
    expect(card.textContent).not.toContain('whsec_5d1c0e7b2a9f44c1b8e63f9a');
  });

  it('测试 shows the answer and the delivery log grows; a failed answer says so', async () => {
    fake.state.webhooks = [
      {
        id: 5,
        url: 'https://a.example.com/h',
        secretHint: 'whsec_****aaaa',
        enabled: true,
        createdAt: '2026-11-25T02:00:00.000Z',
        deliveries: [
          {
            id: 1,
            event: 'idle_shutdown',
            attempts: 3,
            status: 'pending',
            responseStatus: 503,
            responseExcerpt: 'Service Unavailable',
            lastAttemptAt: '2026-11-25T02:10:00.000Z',
            nextAttemptAt: '2026-11-25T02:40:00.000Z',
          },
        ],
      },
    ];
    await openWebhooks();
    const card = await screen.findByTestId('webhook-5');
    const row = within(card).getAllByTestId('webhook-delivery')[0] as HTMLElement;
    // Status, HTTP code, excerpt, attempts, last try and next retry (Shanghai time).
    for (const text of [
      '空闲自动关机',
      '待重试',
      '503',
      'Service Unavailable',
      '3',
      '11-25 10:10',
      '11-25 10:40',
    ])
      expect(row.textContent).toContain(text);

    fireEvent.click(within(card).getByTestId('webhook-test'));
    expect((await within(card).findByTestId('webhook-test-result')).textContent).toContain(
      '测试成功（HTTP 200）',
    );
    // A test is answered on the spot, not logged among the deliveries (as the server does).
    expect(within(card).getAllByTestId('webhook-delivery')).toHaveLength(1);

    fake.state.testAnswer = { ok: false, responseStatus: 500, responseExcerpt: 'boom', durationMs: 30 };
    fireEvent.click(within(card).getByTestId('webhook-test'));
    await waitFor(() =>
      expect(within(card).getByTestId('webhook-test-result').textContent).toContain('测试失败（HTTP 500）'),
    );
    expect(within(card).getByTestId('webhook-test-result').textContent).toContain('boom');
    expect(fake.callsTo('POST', '/api/user/webhooks/5/test')).toHaveLength(2);
  });

  it('删除 asks first, then deletes', async () => {
    fake.state.webhooks = [
      {
        id: 9,
        url: 'https://b.example.com/h',
        secretHint: 'whsec_****bbbb',
        enabled: false,
        createdAt: '2026-11-25T02:00:00.000Z',
        deliveries: [],
      },
    ];
    await openWebhooks();
    fireEvent.click(screen.getByTestId('webhook-add'));
    expect(await findText('请输入回调地址')).toBeTruthy();
    const card = await screen.findByTestId('webhook-9');
    expect(card.textContent).toContain('已停用');
    expect(card.textContent).toContain('暂无投递记录');
    fireEvent.click(within(card).getByTestId('webhook-delete'));
    expect(await findText('删除这个 Webhook？')).toBeTruthy();
    expect(fake.callsTo('DELETE', '/api/user/webhooks/9')).toHaveLength(0);
    fireEvent.click(document.getElementById('webhook-delete-ok-9') as HTMLElement);
    expect(await findText('Webhook 已删除')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('webhook-9')).toBeNull());
    expect(fake.callsTo('DELETE', '/api/user/webhooks/9')).toHaveLength(1);
    expect(screen.getByTestId('webhooks-empty')).toBeTruthy();
  });

  it('the switch pauses and resumes a webhook', async () => {
    fake.state.webhooks = [
      {
        id: 4,
        url: 'https://c.example.com/h',
        secretHint: 'whsec_****cccc',
        enabled: true,
        createdAt: '2026-11-25T02:00:00.000Z',
        deliveries: [],
      },
    ];
    await openWebhooks();
    const card = await screen.findByTestId('webhook-4');
    const toggle = within(card).getByTestId('webhook-enabled');
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(toggle);
    expect(await findText('Webhook 已停用，不再投递新通知')).toBeTruthy();
    await waitFor(() =>
      expect(within(card).getByTestId('webhook-enabled').getAttribute('aria-checked')).toBe('false'),
    );
    expect(fake.callsTo('PUT', '/api/user/webhooks/4').map((c) => c.body)).toEqual([{ enabled: false }]);
    fireEvent.click(within(card).getByTestId('webhook-enabled'));
    expect(await findText('Webhook 已启用')).toBeTruthy();
    expect(fake.callsTo('PUT', '/api/user/webhooks/4').map((c) => c.body)).toEqual([
      { enabled: false },
      { enabled: true },
    ]);
  });
});
