import type { MetricsRange } from '@gpu/shared/monitoring';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ApiAnswer, fail, ok, restoreApi, stubApi } from '../../../test/api-stub';
import { hostSeries, instanceSeries } from '../test-series';
import HostMetricsDrawer from './HostMetricsDrawer';
import InstanceMetricsDrawer from './InstanceMetricsDrawer';

// jsdom has no canvas: the chart component records what ECharts would draw instead. What really
// draws is checked in a browser (apps/web/e2e/monitoring.e2e.test.ts).
vi.mock('echarts-for-react/esm/core', () => ({
  default: ({ option }: { option: { series: { name: string; data: unknown[] }[] } }) => (
    <div
      data-testid="echart"
      data-names={option.series.map((s) => s.name).join(',')}
      data-points={option.series[0]?.data.length}
    />
  ),
}));
vi.mock('echarts/core', () => ({ use: () => {} }));
vi.mock('echarts/charts', () => ({ LineChart: {} }));
vi.mock('echarts/components', () => ({ GridComponent: {}, LegendComponent: {}, TooltipComponent: {} }));
vi.mock('echarts/renderers', () => ({ CanvasRenderer: {} }));

vi.setConfig({ testTimeout: 20_000 });

const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

afterEach(() => {
  vi.useRealTimers();
  restoreApi();
});

/** The metrics requests the fake API saw, as their range. */
const rangesAsked = (fetch: ReturnType<typeof stubApi>, path: string) =>
  fetch.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((u) => u.pathname === path)
    .map((u) => u.searchParams.get('range'));

function showInstance(answer: (range: MetricsRange) => ApiAnswer) {
  const fetch = stubApi((url) =>
    url.pathname === '/api/gpu/instance/u-1/metrics'
      ? answer(url.searchParams.get('range') as MetricsRange)
      : undefined,
  );
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={client()}>
      <InstanceMetricsDrawer inst={{ uuid: 'u-1', name: 'train-1' }} onClose={onClose} />
    </QueryClientProvider>,
  );
  return { fetch, onClose };
}

describe('InstanceMetricsDrawer', () => {
  it('shows the last hour first, one line per GPU, then the range picked', async () => {
    const { fetch } = showInstance((range) =>
      ok(range === '1h' ? instanceSeries('1h', 240) : instanceSeries(range, 288, 300)),
    );
    expect(screen.getByText('监控 · train-1')).toBeTruthy();
    expect(screen.getByTestId('metrics-loading')).toBeTruthy();
    const util = await screen.findByTestId('metrics-chart-gpuUtil');
    expect(within(util).getByText('GPU 利用率')).toBeTruthy();
    expect(within(util).getByTestId('echart').dataset.names).toBe('GPU 0,GPU 1');
    expect(within(util).getByTestId('echart').dataset.points).toBe('240');
    expect(within(screen.getByTestId('metrics-chart-memory')).getByTestId('echart').dataset.names).toBe(
      '已用,上限',
    );
    expect(screen.getAllByTestId('echart')).toHaveLength(5);
    expect(screen.getByTestId('metrics-panel').textContent).toContain('每 15 秒自动刷新');
    expect(rangesAsked(fetch, '/api/gpu/instance/u-1/metrics')).toEqual(['1h']);

    fireEvent.click(screen.getByText('7天'));
    await waitFor(() => expect(screen.getByTestId('metrics-panel').dataset.range).toBe('7d'));
    await waitFor(() =>
      expect(within(screen.getByTestId('metrics-chart-cpu')).getByTestId('echart').dataset.points).toBe(
        '288',
      ),
    );
    expect(screen.getByTestId('metrics-panel').textContent).toContain('每点 5 分钟均值');
    expect(rangesAsked(fetch, '/api/gpu/instance/u-1/metrics')).toEqual(['1h', '7d']);
  });

  it('says the instance is not running or has no data yet when the series is empty', async () => {
    showInstance((range) => ok({ range, stepSeconds: 15, points: [] }));
    const empty = await screen.findByTestId('metrics-empty');
    expect(empty.textContent).toContain('实例未运行或暂无数据');
    expect(screen.queryByTestId('echart')).toBeNull();
  });

  it('shows a failed load with its reason and loads again on 重试', async () => {
    let answers = 0;
    const { fetch } = showInstance((range) =>
      ++answers === 1 ? fail('实例不存在', 404) : ok(instanceSeries(range, 10)),
    );
    const error = await screen.findByTestId('metrics-error');
    expect(error.textContent).toContain('监控数据加载失败');
    expect(error.textContent).toContain('实例不存在');
    fireEvent.click(within(error).getByRole('button', { name: /重\s*试/ }));
    expect(await screen.findByTestId('metrics-chart-gpuUtil')).toBeTruthy();
    expect(screen.queryByTestId('metrics-error')).toBeNull();
    expect(rangesAsked(fetch, '/api/gpu/instance/u-1/metrics')).toEqual(['1h', '1h']);
  });

  it('asks again every 15 s for the last hour, and not that often for longer ranges', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { fetch } = showInstance((range) => ok(instanceSeries(range, 10)));
    await screen.findByTestId('metrics-chart-gpuUtil');
    const asked = () => rangesAsked(fetch, '/api/gpu/instance/u-1/metrics');
    expect(asked()).toEqual(['1h']);
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    await waitFor(() => expect(asked()).toEqual(['1h', '1h']));

    fireEvent.click(screen.getByText('24小时'));
    await waitFor(() => expect(asked()).toEqual(['1h', '1h', '24h']));
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(asked()).toEqual(['1h', '1h', '24h']);
  });
});

describe('HostMetricsDrawer', () => {
  it("draws the host's GPUs by index from the admin route, with its own empty text", async () => {
    let empty = false;
    const fetch = stubApi((url) =>
      url.pathname === '/api/admin/hosts/3/metrics'
        ? ok(empty ? { range: '1h', stepSeconds: 15, gpuCount: 4, points: [] } : hostSeries('1h', 12))
        : undefined,
    );
    const { unmount } = render(
      <QueryClientProvider client={client()}>
        <HostMetricsDrawer host={{ id: 3 }} title="主机监控 · bj-01" onClose={() => {}} />
      </QueryClientProvider>,
    );
    expect(screen.getByText('主机监控 · bj-01')).toBeTruthy();
    const util = await screen.findByTestId('metrics-chart-gpuUtil');
    expect(within(util).getByTestId('echart').dataset.names).toBe('GPU 0,GPU 1,GPU 2,GPU 3');
    expect(within(screen.getByTestId('metrics-chart-disk')).getByTestId('echart').dataset.names).toBe('已用');
    expect(rangesAsked(fetch, '/api/admin/hosts/3/metrics')).toEqual(['1h']);
    unmount();

    empty = true;
    render(
      <QueryClientProvider client={client()}>
        <HostMetricsDrawer host={{ id: 3 }} title="主机监控 · bj-01" onClose={() => {}} />
      </QueryClientProvider>,
    );
    expect((await screen.findByTestId('metrics-empty')).textContent).toContain('暂无监控数据');
  });
});
