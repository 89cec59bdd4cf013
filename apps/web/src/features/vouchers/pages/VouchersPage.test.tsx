import type { User } from '@gpu/shared/auth';
import type { VoucherStats, VoucherView } from '@gpu/shared/vouchers';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, restoreApi, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';
import VouchersPage from './VouchersPage';

// /console/vouchers (issue 11, SPEC.md §2, §4): stats cards, status tabs, empty and error states,
// against a fake fetch that records what the page asked for.

vi.setConfig({ testTimeout: 30_000 });

const DAY = 86_400_000;
const voucher = (over: Partial<VoucherView> = {}): VoucherView => ({
  id: 1,
  name: '新用户礼券',
  voucherName: '新用户礼券',
  voucherCode: 'VC-0001',
  description: '',
  status: 'UNUSED',
  amount: 100,
  remainingAmount: 60,
  usedAmount: 40,
  minOrderAmount: 0,
  expiresAt: new Date(Date.now() + 30 * DAY).toISOString(),
  regionId: null,
  regionName: '',
  gpuType: '',
  createdAt: new Date().toISOString(),
  ...over,
});

let stats: VoucherStats;
/** The list the fake answers for each status filter ('all' when none was sent). */
let lists: Record<string, VoucherView[]>;
let listFails: boolean;
/** The query of each GET /api/user/vouchers, in order. */
let listQueries: URLSearchParams[];

beforeAll(async () => {
  // antd's pieces are transformed once here, not inside a test's wait.
  await import('antd');
}, 60_000);

beforeEach(() => {
  stats = { totalValue: 0, unused: 0, used: 0, expired: 0, expiring: 0 };
  lists = {};
  listFails = false;
  listQueries = [];
  stubApi(
    (url) => {
      if (url.pathname === '/api/user/vouchers/stats') return ok(stats);
      if (url.pathname === '/api/user/vouchers') {
        listQueries.push(url.searchParams);
        if (listFails) return fail('服务器开小差了', 500);
        const list = lists[url.searchParams.get('status') ?? 'all'] ?? [];
        return ok({ list, total: list.length, page: 1, size: 12 });
      }
    },
    { user: { id: 1, username: 'alice' } as User },
  );
});
afterEach(restoreApi);

const renderPage = () =>
  renderApp(
    [
      { path: '/console/vouchers', element: <VouchersPage /> },
      { path: '/market', element: <div data-testid="market">market</div> },
    ],
    '/console/vouchers',
  );

const statValue = (key: string) => screen.getByTestId(`voucher-stat-${key}`).textContent;
const tab = (label: string) => screen.getByRole('tab', { name: label });
const cardNames = () =>
  screen.queryAllByTestId('voucher-card').map((card) => within(card).getByText(/券$/).textContent);

describe('/console/vouchers', () => {
  it('shows the totals of /api/user/vouchers/stats in the stats cards', async () => {
    stats = { totalValue: 1234.5, unused: 3, used: 2, expired: 1, expiring: 1 };
    lists.all = [voucher()];
    renderPage();
    await waitFor(() => expect(statValue('totalValue')).toBe('¥1,234.50'));
    const cards = screen.getByTestId('voucher-stats');
    expect(within(cards).getByText('可用总额')).toBeTruthy();
    expect(statValue('unused')).toBe('3');
    expect(statValue('used')).toBe('2');
    expect(statValue('expired')).toBe('1');
    expect(within(cards).getByText('未使用')).toBeTruthy();
    expect(within(cards).getByText('已使用')).toBeTruthy();
    expect(within(cards).getByText('已过期')).toBeTruthy();
  });

  it('the status tabs switch the list, and each request carries the chosen status', async () => {
    lists.all = [
      voucher({ id: 1, name: '未用礼券' }),
      voucher({ id: 2, name: '用完礼券', status: 'USED', remainingAmount: 0 }),
    ];
    lists.UNUSED = [voucher({ id: 1, name: '未用礼券' })];
    lists.USED = [voucher({ id: 2, name: '用完礼券', status: 'USED', remainingAmount: 0 })];
    lists.EXPIRED = [
      voucher({
        id: 3,
        name: '过期礼券',
        status: 'EXPIRED',
        expiresAt: new Date(Date.now() - DAY).toISOString(),
      }),
    ];
    renderPage();
    await waitFor(() => expect(cardNames()).toEqual(['未用礼券', '用完礼券']));
    expect(listQueries[0]?.has('status')).toBe(false);
    expect(tab('全部').getAttribute('aria-selected')).toBe('true');

    fireEvent.click(tab('已使用'));
    await waitFor(() => expect(cardNames()).toEqual(['用完礼券']));
    expect(listQueries.at(-1)?.get('status')).toBe('USED');
    expect(listQueries.at(-1)?.get('page')).toBe('1');
    expect(tab('已使用').getAttribute('aria-selected')).toBe('true');
    // A used voucher has no Use action; its status shows on the card.
    expect(screen.queryByTestId('voucher-use')).toBeNull();

    fireEvent.click(tab('已过期'));
    await waitFor(() => expect(cardNames()).toEqual(['过期礼券']));
    expect(listQueries.at(-1)?.get('status')).toBe('EXPIRED');

    fireEvent.click(tab('未使用'));
    await waitFor(() => expect(cardNames()).toEqual(['未用礼券']));
    expect(listQueries.at(-1)?.get('status')).toBe('UNUSED');
    expect(screen.getByTestId('voucher-use').getAttribute('href')).toBe('/market');

    // Back to 全部: the list without a status filter (from the cache, it was loaded first).
    fireEvent.click(tab('全部'));
    await waitFor(() => expect(cardNames()).toEqual(['未用礼券', '用完礼券']));
  });

  it('says there are no vouchers, or none of the chosen status, with a way to the market', async () => {
    renderPage();
    const empty = await screen.findByTestId('vouchers-empty', {}, { timeout: 8_000 });
    expect(empty.textContent).toContain('暂无代金券');
    expect(within(empty).getByText('去算力市场').closest('a')?.getAttribute('href')).toBe('/market');
    expect(screen.queryByTestId('voucher-card')).toBeNull();

    fireEvent.click(tab('已过期'));
    await waitFor(() =>
      expect(screen.getByTestId('vouchers-empty').textContent).toContain('没有该状态的代金券'),
    );
    expect(listQueries.at(-1)?.get('status')).toBe('EXPIRED');
  });

  it("shows '加载代金券失败' when the list request fails, and Retry loads it again", async () => {
    listFails = true;
    lists.all = [voucher({ name: '重试礼券' })];
    renderPage();
    const alert = await screen.findByTestId('vouchers-load-failed', {}, { timeout: 8_000 });
    expect(alert.textContent).toContain('加载代金券失败');
    expect(screen.queryByTestId('vouchers-empty')).toBeNull();
    expect(screen.queryByTestId('voucher-card')).toBeNull();

    listFails = false;
    fireEvent.click(within(alert).getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(cardNames()).toEqual(['重试礼券']));
    expect(screen.queryByTestId('vouchers-load-failed')).toBeNull();
  });
});
