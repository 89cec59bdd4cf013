import type { User } from '@gpu/shared/auth';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fail, ok, restoreApi, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';
import UserPage from './UserPage';

// /user: the signed-in customer's own figures from their own endpoints, loading and failure
// states instead of made-up numbers.

vi.setConfig({ testTimeout: 30_000 });

const user = {
  id: 7,
  username: '13800138000',
  phone: '13800138000',
  email: '',
  certified: false,
  createdAt: '2026-11-01T02:00:00Z',
} as User;

const summary = {
  todaySpend: 3,
  monthSpend: 1234.5,
  totalSpend: 2000,
  runningInstances: 0,
  hourlyBurn: 0,
  available: 12345.6,
  estimatedHoursLeft: null,
};

beforeAll(async () => {
  await import('antd');
}, 60_000);
afterEach(restoreApi);

const value = (id: string) => screen.getByTestId(`${id}-value`).textContent;

describe('UserPage', () => {
  it("shows the customer's balance, frozen amount, month spend, vouchers and masked phone", async () => {
    stubApi(
      (url) => {
        if (url.pathname === '/api/user/balance')
          return ok({ available: 12345.6, frozen: 20, total: 12365.6 });
        if (url.pathname === '/api/v2/billing/monitor/info') return ok(summary);
        if (url.pathname === '/api/user/vouchers/stats')
          return ok({ totalValue: 150, unused: 2, used: 1, expired: 0, expiring: 0 });
      },
      { user },
    );
    renderApp([{ path: '/user', element: <UserPage /> }], '/user');
    await waitFor(() => expect(value('user-balance')).toBe('¥12,345.60'));
    expect(screen.getByTestId('user-balance').textContent).toContain('冻结 ¥20.00');
    await waitFor(() => expect(value('user-month-spend')).toBe('¥1,234.50'));
    await waitFor(() => expect(value('user-vouchers')).toBe('2 张'));
    expect(value('user-level')).toBe('普通会员');
    expect(screen.getByTestId('user-phone').textContent).toBe('138****8000');
    expect(screen.getByTestId('user-name').textContent).toBe('138****8000');
    expect(screen.getByTestId('user-page').textContent).not.toContain('13800138000');
  });

  it('says a figure failed to load rather than showing ¥0.00', async () => {
    stubApi(
      (url) => {
        if (url.pathname === '/api/user/balance') return fail('服务器开小差了', 500);
        if (url.pathname === '/api/v2/billing/monitor/info') return ok(summary);
        if (url.pathname === '/api/user/vouchers/stats')
          return ok({ totalValue: 0, unused: 0, used: 0, expired: 0, expiring: 0 });
      },
      { user },
    );
    renderApp([{ path: '/user', element: <UserPage /> }], '/user');
    const card = screen.getByTestId('user-balance');
    expect(card.getAttribute('data-state')).toBe('loading');
    expect(card.textContent).not.toContain('¥');
    await waitFor(() => expect(card.getAttribute('data-state')).toBe('error'), { timeout: 20_000 });
    expect(card.textContent).toContain('加载失败');
    expect(card.textContent).not.toContain('¥');
  });
});
