import type { User } from '@gpu/shared/auth';
import type { MarketItem, MarketList } from '@gpu/shared/market';
import type { VastaiStatus } from '@gpu/shared/vastai';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setUserSession } from '../../../lib/session';
import { fail, ok, restoreApi, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';
import { marketItem } from '../../subscribe/test-fixtures';
import MarketPage from './MarketPage';

// The market's overseas notice (issue 14): without a vast.ai key, choosing the overseas region
// says the overseas area is not configured, and the market keeps listing the machines it has.

vi.setConfig({ testTimeout: 30_000 });

const LOCAL = 1;
const OVERSEAS = 9;
const REGIONS: MarketList['regions'] = [
  { id: LOCAL, name: '安徽A区', overseas: false },
  { id: OVERSEAS, name: '海外区（美国）', overseas: true },
];

const item = (id: number, hostName: string, regionId: number, regionName: string): MarketItem =>
  marketItem({
    id,
    skuGpuId: `gpu-${id}`,
    gpuName: 'RTX 4090',
    memoryGb: 24,
    hostName,
    regionId,
    regionName,
  });

const LOCAL_MACHINES = [item(1, 'ah-a-01', LOCAL, '安徽A区'), item(2, 'ah-a-02', LOCAL, '安徽A区')];
/** A host of ours (not vast.ai) in the overseas region. */
const OVERSEAS_MACHINE = item(3, 'us-west-01', OVERSEAS, '海外区（美国）');

const NOT_CONFIGURED: VastaiStatus = {
  configured: false,
  message: '海外 GPU（vast.ai）未配置',
  lastRefreshAt: null,
  lastRefreshOk: null,
  offerCount: 0,
};

let machines: MarketItem[];
let status: VastaiStatus | 'fail';
let statusCalls = 0;
let syncCalls = 0;

beforeAll(async () => {
  await import('antd');
}, 60_000);

beforeEach(() => {
  machines = [...LOCAL_MACHINES, OVERSEAS_MACHINE];
  status = NOT_CONFIGURED;
  statusCalls = 0;
  syncCalls = 0;
  stubApi((url) => {
    if (url.pathname === '/api/gpu/market') {
      const region = url.searchParams.get('regionId');
      const list = machines.filter((m) => region === null || m.regionId === Number(region));
      const page: MarketList = {
        list,
        total: list.length,
        page: 1,
        size: 12,
        lastSyncedAt: null,
        regions: REGIONS,
        gpuModels: ['RTX 4090'],
      };
      return ok(page);
    }
    if (url.pathname === '/api/gpu/sync') {
      syncCalls += 1;
      return ok({ synced: true, lastSyncedAt: '2026-11-25T08:00:00.000Z' });
    }
    if (url.pathname === '/api/gpu/vastai/status') {
      statusCalls += 1;
      return status === 'fail' ? fail('服务器开小差了', 500) : ok(status);
    }
  });
});
afterEach(restoreApi);

const renderMarket = (path = '/market') => renderApp([{ path: '/market', element: <MarketPage /> }], path);

const hosts = () => screen.queryAllByTestId('gpu-card-host').map((el) => el.textContent);
const chooseRegion = (name: string) =>
  fireEvent.click(within(screen.getByTestId('filter-region')).getByLabelText(name));

describe('market: the background sync (issue 26: signed-in customers only)', () => {
  it('asks no sync for an anonymous visitor (it would be refused), and lists the machines', async () => {
    renderMarket();
    await waitFor(() => expect(hosts()).toEqual(['ah-a-01', 'ah-a-02', 'us-west-01']));
    fireEvent.click(screen.getByRole('button', { name: /刷新/ }));
    await new Promise((r) => setTimeout(r, 50));
    expect(syncCalls).toBe(0);
  });

  it('syncs in the background for a signed-in customer', async () => {
    setUserSession('tok', { id: 1, username: 'u1' } as User);
    renderMarket();
    await waitFor(() => expect(hosts()).toEqual(['ah-a-01', 'ah-a-02', 'us-west-01']));
    await waitFor(() => expect(syncCalls).toBe(1));
  });
});

describe('market: the overseas notice', () => {
  it('says vast.ai is not configured when the overseas region is chosen; the market still lists machines', async () => {
    const router = renderMarket();
    await waitFor(() => expect(hosts()).toEqual(['ah-a-01', 'ah-a-02', 'us-west-01']));
    // Nothing is asked about vast.ai, and nothing said, until the overseas region is chosen.
    expect(screen.queryByTestId('overseas-notice')).toBeNull();
    expect(statusCalls).toBe(0);

    chooseRegion('海外区（美国）');
    const notice = await screen.findByTestId('overseas-notice', {}, { timeout: 8_000 });
    expect(notice.textContent).toBe('海外机器：海外 GPU（vast.ai）未配置');
    expect(router.state.location.search).toBe(`?regionId=${OVERSEAS}`);
    // The region's other machines are still there, with the rest of the market around them.
    await waitFor(() => expect(hosts()).toEqual(['us-west-01']));
    expect(screen.getByTestId('market-total').textContent).toBe('共 1 台可用机器');
    expect(screen.queryByTestId('market-empty')).toBeNull();

    // Another region: no notice, that region's machines.
    chooseRegion('安徽A区');
    await waitFor(() => expect(hosts()).toEqual(['ah-a-01', 'ah-a-02']));
    expect(screen.queryByTestId('overseas-notice')).toBeNull();
  });

  it('shows the notice for a link that opens the overseas region, with the empty state when it has nothing', async () => {
    // The overseas region is still offered (the server offers it even with no machine in it).
    machines = [...LOCAL_MACHINES];
    renderMarket(`/market?regionId=${OVERSEAS}`);
    const notice = await screen.findByTestId('overseas-notice', {}, { timeout: 8_000 });
    expect(notice.textContent).toBe('海外机器：海外 GPU（vast.ai）未配置');
    // The rest of the page works: the empty state with its refresh, and 全部 lists the others.
    expect((await screen.findByTestId('market-empty')).textContent).toContain('暂无可用GPU资源');
    chooseRegion('全部');
    await waitFor(() => expect(hosts()).toEqual(['ah-a-01', 'ah-a-02']));
    expect(screen.queryByTestId('overseas-notice')).toBeNull();
  });

  it('keeps the overseas region chosen from its chip when it has no machine at all (issue 14)', async () => {
    machines = [...LOCAL_MACHINES];
    const router = renderMarket();
    await waitFor(() => expect(hosts()).toEqual(['ah-a-01', 'ah-a-02']));
    chooseRegion('海外区（美国）');
    const notice = await screen.findByTestId('overseas-notice', {}, { timeout: 8_000 });
    expect(notice.textContent).toBe('海外机器：海外 GPU（vast.ai）未配置');
    expect((await screen.findByTestId('market-empty')).textContent).toContain('暂无可用GPU资源');
    // The choice is not dropped: the region is offered though nothing is in it.
    expect(router.state.location.search).toBe(`?regionId=${OVERSEAS}`);
    expect(screen.getByTestId('market-total').textContent).toBe('共 0 台可用机器');
  });

  it('shows no notice when vast.ai is configured and its offers refresh', async () => {
    status = { configured: true, message: null, lastRefreshAt: null, lastRefreshOk: true, offerCount: 3 };
    renderMarket(`/market?regionId=${OVERSEAS}`);
    await waitFor(() => expect(hosts()).toEqual(['us-west-01']));
    await waitFor(() => expect(statusCalls).toBe(1));
    expect(screen.queryByTestId('overseas-notice')).toBeNull();
  });

  it('keeps listing machines when the vast.ai status request fails', async () => {
    status = 'fail';
    renderMarket(`/market?regionId=${OVERSEAS}`);
    await waitFor(() => expect(hosts()).toEqual(['us-west-01']));
    await waitFor(() => expect(statusCalls).toBeGreaterThanOrEqual(1));
    expect(screen.queryByTestId('overseas-notice')).toBeNull();
    expect(screen.getByTestId('market-total').textContent).toBe('共 1 台可用机器');
  });
});
