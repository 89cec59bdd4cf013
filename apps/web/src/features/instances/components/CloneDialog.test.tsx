import type { Instance } from '@gpu/shared/instances';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CloneDialog } from './CloneDialog';

const notify = vi.hoisted(() => vi.fn());
vi.mock('../../../lib/feedback', () => ({ notify }));
vi.mock('../../billing', () => ({ announceMoneyChange: vi.fn() }));

const source = {
  id: 7,
  uuid: '7',
  name: 'train-a',
  status: 'STOPPED',
  billingType: 'hourly',
  gpuCount: 2,
  machineId: 31,
  cloneable: true,
  imageSaveable: true,
  dataMountPath: '/root/data',
} as Instance;

const answer = (data: unknown) =>
  new Response(JSON.stringify({ success: true, code: '200', message: '', data }));

const here = {
  machineId: 31,
  hostName: 'bj-a-a100-01',
  regionName: '北京A区',
  gpuModel: 'A100 80GB',
  gpuIdleNum: 1,
  sameHost: true,
};
/** Without a registry the server offers the source's machine only. */
const onlyHere = { otherHosts: false, list: [here] };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('CloneDialog', () => {
  it("shows the server's price for the order and buys the clone with it, the duration held to the mode's limits", async () => {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    const fetch = vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      if (url.includes('clone-targets')) return answer(onlyHere);
      const body = JSON.parse(String(init.body));
      if (url.includes('calculate-price'))
        return answer({ ...body, payableAmount: 100 * body.gpuAmount * body.duration });
      return answer({ ...source, id: 8, name: body.instanceName, status: 'CREATING' });
    });
    vi.stubGlobal('fetch', fetch);
    const onClose = vi.fn();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <CloneDialog inst={source} onClose={onClose} />
      </QueryClientProvider>,
    );
    expect(screen.getByTestId('clone-intro').textContent).toContain('/root/data');
    await waitFor(() =>
      expect(calls.some((c) => c.url.includes('clone-targets?instance_uuid=7'))).toBe(true),
    );
    // One machine to offer: no choice shown.
    expect(screen.queryByTestId('clone-machine')).toBeNull();
    expect((screen.getByTestId('clone-name') as HTMLInputElement).value).toBe('train-a-clone');
    fireEvent.click(screen.getByText('包日'));
    fireEvent.change(screen.getByTestId('clone-duration'), { target: { value: '6' } });
    fireEvent.click(screen.getByText('包周'));
    // Six days is no number of weeks: three (the most) are asked for and priced.
    await waitFor(() => expect(screen.getByTestId('clone-payable').textContent).toContain('600.00'));
    const confirm = screen.getByTestId('clone-confirm');
    await waitFor(() => expect((confirm as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(confirm);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const bought = calls.find((c) => c.url.includes('/gpu/instance/clone?'));
    expect(bought?.url).toContain('instance_uuid=7');
    expect(JSON.parse(String(bought?.init.body))).toEqual({
      instanceName: 'train-a-clone',
      gpuAmount: 2,
      billingType: 'weekly',
      duration: 3,
    });
    expect(new Headers(bought?.init.headers).get('Idempotency-Key')).toBeTruthy();
    expect(notify).toHaveBeenCalledWith('info', '已下单，正在克隆实例：复制完成后新实例自动开机');
  });

  it('refuses a bad name before anything is sent', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer({ payableAmount: 1 })),
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <CloneDialog inst={source} onClose={vi.fn()} />
      </QueryClientProvider>,
    );
    fireEvent.change(screen.getByTestId('clone-name'), { target: { value: '' } });
    expect((await screen.findByTestId('clone-name-error')).textContent).toBe('请输入实例名称');
    expect((screen.getByTestId('clone-confirm') as HTMLButtonElement).disabled).toBe(true);
  });

  it('with a registry offers the source machine first and another host; picking it prices and buys the clone there', async () => {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    const there = { ...here, machineId: 32, hostName: 'bj-a-a100-02', gpuIdleNum: 8, sameHost: false };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push({ url, init });
        if (url.includes('clone-targets')) return answer({ otherHosts: true, list: [here, there] });
        const body = JSON.parse(String(init.body));
        if (url.includes('calculate-price'))
          return answer({ ...body, payableAmount: body.machineId === 32 ? 6 : 7.58 });
        return answer({ ...source, id: 9, name: body.instanceName, status: 'CREATING' });
      }),
    );
    const onClose = vi.fn();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <CloneDialog inst={source} onClose={onClose} />
      </QueryClientProvider>,
    );
    const first = await screen.findByTestId('clone-machine-31');
    expect(first.textContent).toBe('bj-a-a100-01 · 空闲 1 卡 （源实例所在主机，最快）');
    expect(screen.getByTestId('clone-machine-32').textContent).toBe(
      'bj-a-a100-02 · 空闲 8 卡 （其他主机，经镜像仓库复制）',
    );
    // The source's machine is chosen to begin with, and priced.
    const picked = (id: number) =>
      Boolean(
        screen
          .getByTestId(`clone-machine-${id}`)
          .closest('label')
          ?.classList.contains('ant-radio-wrapper-checked'),
      );
    expect([picked(31), picked(32)]).toEqual([true, false]);
    await waitFor(() => expect(screen.getByTestId('clone-payable').textContent).toContain('7.58'));
    expect(screen.queryByTestId('clone-other-host')).toBeNull();

    fireEvent.click(screen.getByText('bj-a-a100-02', { exact: false }));
    expect([picked(31), picked(32)]).toEqual([false, true]);
    await waitFor(() => expect(screen.getByTestId('clone-payable').textContent).toContain('6.00'));
    expect(screen.getByTestId('clone-other-host').textContent).toContain('经镜像仓库复制到所选主机');
    const confirm = screen.getByTestId('clone-confirm');
    await waitFor(() => expect((confirm as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(confirm);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const bought = calls.find((c) => c.url.includes('/gpu/instance/clone?'));
    expect(JSON.parse(String(bought?.init.body))).toEqual({
      instanceName: 'train-a-clone',
      gpuAmount: 2,
      billingType: 'hourly',
      duration: 1,
      machineId: 32,
    });
  });
});
