import type { User } from '@gpu/shared/auth';
import { APP_EVENTS } from '@gpu/shared/constants';
import type { VoucherStats } from '@gpu/shared/vouchers';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { emitAppEvent } from '../../../lib/app-events';
import { fail, ok, restoreApi, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';
import { AccountPanel } from './AccountPanel';
import UserMenu from './UserMenu';

// The account menu (SPEC.md §2): the voucher total is the real one from /api/user/vouchers/stats
// (issue 11: it used to read ¥0.00 from a missing endpoint), 0.00 only when loading fails (§8),
// a skeleton while loading, and it reloads 500 ms after a voucher event, once for a burst (§9).

vi.setConfig({ testTimeout: 30_000 });

const USER = {
  id: 7,
  tenantId: 1,
  username: 'alice',
  phone: '13800000000',
  email: null,
  certified: true,
  salesName: null,
  createdAt: '2026-01-01T00:00:00.000Z',
} as unknown as User;

const stats = (totalValue: number): VoucherStats => ({
  totalValue,
  unused: 2,
  used: 0,
  expired: 0,
  expiring: 0,
});

let voucherStats: VoucherStats | 'fail';
/** Fake-clock times of each GET /api/user/vouchers/stats. */
let statsAt: number[];

beforeAll(async () => {
  await import('antd');
}, 60_000);

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  voucherStats = stats(0);
  statsAt = [];
  stubApi(
    (url) => {
      if (url.pathname === '/api/user/vouchers/stats') {
        statsAt.push(Date.now());
        return voucherStats === 'fail' ? fail('服务器开小差了', 500) : ok(voucherStats);
      }
      if (url.pathname === '/api/user/balance') return ok({ available: 88, frozen: 0, total: 88 });
      if (url.pathname === '/api/auth/me') return ok(USER);
    },
    { user: USER },
  );
});
afterEach(() => {
  restoreApi();
  vi.useRealTimers();
});

const renderAt = (element: ReactNode) => renderApp([{ path: '/console', element }], '/console');

/** The amount shown in the account panel's row labelled `label`. */
const row = (label: string) => screen.getByText(label).closest('div')?.querySelector('dd')?.textContent;
const tick = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('account menu', () => {
  it('shows the voucher total from the stats, next to the balances', async () => {
    voucherStats = stats(1234.5);
    renderAt(<AccountPanel />);
    await waitFor(() => expect(row('代金券总额')).toBe('¥1,234.50'));
    expect(row('可用余额')).toBe('¥88.00');
    expect(row('冻结余额')).toBe('¥0.00');
    expect(screen.getByTestId('account-panel').textContent).toContain('alice');
    expect(statsAt.length).toBe(1);
  });

  it('shows a skeleton, never ¥0.00, for the balances until they arrive', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const answer = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      if (String(input).includes('/api/user/balance')) await held;
      return answer(input, init);
    });
    renderAt(<AccountPanel />);
    await waitFor(() => expect(row('代金券总额')).toBe('¥0.00'));
    expect(row('可用余额')).toBe('');
    expect(row('冻结余额')).toBe('');
    expect(screen.getAllByTestId('account-loading')).toHaveLength(2);
    release();
    await waitFor(() => expect(row('可用余额')).toBe('¥88.00'));
    expect(row('冻结余额')).toBe('¥0.00');
    expect(screen.queryAllByTestId('account-loading')).toHaveLength(0);
  });

  it('shows ¥0.00 as the voucher total when the stats cannot be loaded', async () => {
    voucherStats = 'fail';
    renderAt(<AccountPanel />);
    await waitFor(() => expect(row('可用余额')).toBe('¥88.00'));
    // The query retries once before it gives up.
    await tick(1_500);
    await waitFor(() => expect(statsAt.length).toBe(2));
    expect(row('代金券总额')).toBe('¥0.00');
  });

  it('reloads the voucher total 500 ms after a voucher event, once for several events', async () => {
    voucherStats = stats(50);
    renderAt(<UserMenu />);
    fireEvent.click(await screen.findByTestId('user-menu'));
    await waitFor(() => expect(row('代金券总额')).toBe('¥50.00'));
    expect(statsAt.length).toBe(1);

    // Vouchers arrived: two events 200 ms apart.
    voucherStats = stats(150);
    const start = Date.now();
    act(() => emitAppEvent(APP_EVENTS.voucher));
    await tick(200);
    act(() => emitAppEvent(APP_EVENTS.voucher));
    await tick(300);
    // 500 ms after the first event (its timer was replaced), 300 ms after the second: not yet.
    expect(statsAt.length).toBe(1);
    expect(row('代金券总额')).toBe('¥50.00');

    await tick(250);
    await waitFor(() => expect(row('代金券总额')).toBe('¥150.00'));
    expect(statsAt.length).toBe(2);
    // 500 ms after the last event.
    expect((statsAt[1] ?? 0) - start).toBeGreaterThanOrEqual(700);

    // No further reload comes on its own.
    await tick(2_000);
    expect(statsAt.length).toBe(2);
  });

  it('another event (a balance event) does not reload the voucher total', async () => {
    voucherStats = stats(50);
    renderAt(<UserMenu />);
    fireEvent.click(await screen.findByTestId('user-menu'));
    await waitFor(() => expect(row('代金券总额')).toBe('¥50.00'));
    voucherStats = stats(150);
    act(() => emitAppEvent(APP_EVENTS.balance));
    await tick(1_000);
    expect(statsAt.length).toBe(1);
    expect(row('代金券总额')).toBe('¥50.00');
  });
});
