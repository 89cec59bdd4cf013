import type { Instance } from '@gpu/shared/instances';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, restoreApi, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';
import InstancesPage from '../pages/InstancesPage';
import { instance } from '../test-fixtures';
import { InstanceTable } from './InstanceTable';

// The list's GPU utilisation (issue 31): a sparkline per running instance from one request for the
// whole page, and 监控 on every instance that has run.

vi.mock('echarts-for-react/esm/core', () => ({ default: () => <div data-testid="echart" /> }));
vi.mock('echarts/core', () => ({ use: () => {} }));
vi.mock('echarts/charts', () => ({ LineChart: {} }));
vi.mock('echarts/components', () => ({ GridComponent: {}, LegendComponent: {}, TooltipComponent: {} }));
vi.mock('echarts/renderers', () => ({ CanvasRenderer: {} }));

vi.setConfig({ testTimeout: 60_000 });

const running = (id: number, over: Partial<Instance> = {}) =>
  instance({
    id,
    uuid: `u-${id}`,
    name: `run-${id}`,
    status: 'RUNNING',
    runningSince: '2025-06-01T05:00:00.000Z',
    stoppedAt: null,
    ...over,
  });
const INSTANCES = [
  running(1),
  running(2),
  instance({ id: 3, uuid: 'u-3', name: 'off-3' }),
  instance({ id: 4, uuid: 'u-4', name: 'failed-4', status: 'FAILED' }),
];

afterEach(() => restoreApi());

describe('the instance list’s GPU utilisation', () => {
  it('asks once for every row’s sparkline and opens an instance’s 监控 from its row', async () => {
    const fetch = stubApi((url) => {
      if (url.pathname === '/api/gpu/instances')
        return ok({ list: INSTANCES, total: INSTANCES.length, page: 1, size: 10 });
      if (url.pathname === '/api/gpu/instances/gpu-sparklines')
        return ok([
          { instanceUuid: 'u-1', points: [0, 20, 40, 80] },
          { instanceUuid: 'u-2', points: [5, 3] },
        ]);
      if (url.pathname === '/api/gpu/instance/u-1/metrics')
        return ok({ range: '1h', stepSeconds: 15, points: [] });
      return undefined;
    });
    renderApp([{ path: '/console/instance', element: <InstancesPage /> }], '/console/instance');
    // jsdom matches no media query: the page lays out for a phone (one card per instance).
    const card1 = await screen.findByTestId('instance-card-1');
    expect(await within(card1).findByRole('img', { name: '近 1 小时 GPU 利用率，最新 80%' })).toBeTruthy();
    const card2 = screen.getByTestId('instance-card-2');
    expect(within(card2).getByRole('img', { name: '近 1 小时 GPU 利用率，最新 3%' })).toBeTruthy();
    // Powered off: no sparkline, but its history is one click away. A failed create has neither.
    const card3 = screen.getByTestId('instance-card-3');
    expect(within(card3).queryByTestId('gpu-sparkline')).toBeNull();
    expect(within(card3).getByTestId('instance-monitor')).toBeTruthy();
    expect(within(screen.getByTestId('instance-card-4')).queryByTestId('instance-monitor')).toBeNull();
    const sparklineCalls = () =>
      fetch.mock.calls.filter(([u]) => String(u).includes('/gpu/instances/gpu-sparklines')).length;
    expect(sparklineCalls()).toBe(1);

    fireEvent.click(within(card1).getByTestId('instance-monitor'));
    // The drawer is a lazy chunk: on a busy machine its first load takes a while.
    expect(await screen.findByText('监控 · run-1', {}, { timeout: 20_000 })).toBeTruthy();
    expect((await screen.findByTestId('metrics-empty', {}, { timeout: 10_000 })).textContent).toContain(
      '实例未运行或暂无数据',
    );
    await waitFor(() =>
      expect(fetch.mock.calls.some(([u]) => String(u).includes('/gpu/instance/u-1/metrics?range=1h'))).toBe(
        true,
      ),
    );
    expect(sparklineCalls()).toBe(1);
  });

  it('does not ask for sparklines when no instance runs', async () => {
    const stopped = [instance({ id: 3, uuid: 'u-3' })];
    const fetch = stubApi((url) =>
      url.pathname === '/api/gpu/instances' ? ok({ list: stopped, total: 1, page: 1, size: 10 }) : undefined,
    );
    renderApp([{ path: '/console/instance', element: <InstancesPage /> }], '/console/instance');
    await screen.findByTestId('instance-card-3');
    expect(fetch.mock.calls.some(([u]) => String(u).includes('gpu-sparklines'))).toBe(false);
  });

  it('puts the sparkline and 监控 under the GPUs in the desktop table', () => {
    const onAction = vi.fn();
    renderApp(
      [
        {
          path: '/',
          element: (
            <InstanceTable
              instances={[running(1), running(5, { noGpu: true })]}
              now={new Date('2025-06-01T06:00:00.000Z')}
              busy={() => false}
              onAction={onAction}
              sparklines={new Map([['u-1', [10, 60]]])}
            />
          ),
        },
      ],
      '/',
    );
    const row = screen.getByTestId('instance-row-1');
    expect(within(row).getByRole('img', { name: '近 1 小时 GPU 利用率，最新 60%' })).toBeTruthy();
    // No-GPU mode: no GPU to draw.
    expect(within(screen.getByTestId('instance-row-5')).queryByTestId('gpu-sparkline')).toBeNull();
    fireEvent.click(within(row).getByTestId('instance-monitor'));
    expect(onAction).toHaveBeenCalledWith('monitor', expect.objectContaining({ id: 1 }));
  });
});
