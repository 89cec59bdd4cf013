import type { AutoShutdown, SpendingCaps } from '@gpu/shared/guards';
import { DEFAULT_TENANT_CONFIG } from '@gpu/shared/tenant-defaults';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { configureApiClient } from '../../lib/api-client';
import { instance } from '../instances/test-fixtures';
import { AutoShutdownDialog } from './components/AutoShutdownDialog';
import { GuardMarker } from './components/GuardMarker';
import SpendingCapsPage from './pages/SpendingCapsPage';

vi.setConfig({ testTimeout: 30_000 });

type Answer = { status?: number; body: unknown };
const ok = (data: unknown, message = '成功'): Answer => ({
  body: { success: true, code: '200', message, data },
});
let routes: Record<string, (body: unknown) => Answer>;
let calls: { method: string; path: string; body: unknown }[];

beforeEach(() => {
  configureApiClient({ navigate: () => {} });
  calls = [];
  routes = {};
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      const method = init?.method ?? 'GET';
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, path: url.pathname, body });
      const handler = routes[`${method} ${url.pathname}`];
      const answer = handler
        ? handler(body)
        : { status: 404, body: { success: false, code: '404', message: '接口不存在', data: null } };
      return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const wrap = (node: ReactNode) => render(<AppProviders tenant={DEFAULT_TENANT_CONFIG}>{node}</AppProviders>);
const IDLE = { enabled: false, thresholdPercent: 5, idleMinutes: 60, warnMinutes: 10 };
const settings = (over: Partial<AutoShutdown> = {}): AutoShutdown => ({
  instanceId: 42,
  idle: null,
  effectiveIdle: IDLE,
  schedule: { mode: 'off', at: null, hours: null },
  spendingCap: null,
  spentThisRun: 1.23,
  pending: null,
  ...over,
});

describe('自动关机 dialog', () => {
  it('sets 定时关机 after N hours and its own idle settings, and sends them', async () => {
    routes['GET /api/gpu/instance/42/auto-shutdown'] = () => ok(settings());
    routes['PUT /api/gpu/instance/42/auto-shutdown'] = (body) => ok(settings(), String(Boolean(body)));
    const onClose = vi.fn();
    wrap(
      <AutoShutdownDialog
        inst={instance({ id: 42, name: 'train', billingType: 'hourly' })}
        onClose={onClose}
      />,
    );
    await screen.findByTestId('auto-shutdown-dialog', {}, { timeout: 10_000 });
    expect(screen.getByTestId('spent-this-run').textContent).toContain('¥1.23');
    fireEvent.click(screen.getByText('运行一段时间后'));
    fireEvent.change(screen.getByTestId('schedule-hours'), { target: { value: '3' } });
    fireEvent.click(screen.getByTestId('idle-follow'));
    fireEvent.click(screen.getByTestId('idle-enabled'));
    fireEvent.change(screen.getByTestId('idle-minutes'), { target: { value: '30' } });
    fireEvent.change(screen.getByTestId('idle-warn'), { target: { value: '30' } });
    // A warning as long as the idle time: the shared rule says so and nothing can be sent.
    expect((await screen.findByTestId('auto-shutdown-error')).textContent).toContain(
      '提前提醒（warnMinutes）',
    );
    expect((screen.getByTestId('auto-shutdown-save') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('idle-minutes'), { target: { value: '45' } });
    await waitFor(() => expect(screen.queryByTestId('auto-shutdown-error')).toBeNull());
    fireEvent.change(screen.getByTestId('instance-cap'), { target: { value: '12.5' } });
    fireEvent.click(screen.getByTestId('auto-shutdown-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toEqual({
      idle: { enabled: true, thresholdPercent: 5, idleMinutes: 45, warnMinutes: 30 },
      schedule: { mode: 'after', hours: 3 },
      spendingCap: 12.5,
    });
  });

  it('a package has no per-instance cap; a chosen time is sent as Asia/Shanghai wall time', async () => {
    routes['GET /api/gpu/instance/43/auto-shutdown'] = () => ok(settings({ instanceId: 43 }));
    routes['PUT /api/gpu/instance/43/auto-shutdown'] = () => ok(settings({ instanceId: 43 }));
    wrap(<AutoShutdownDialog inst={instance({ id: 43, billingType: 'daily' })} onClose={() => {}} />);
    await screen.findByTestId('auto-shutdown-dialog', {}, { timeout: 10_000 });
    expect(screen.queryByTestId('instance-cap')).toBeNull();
    expect(screen.getByText('包年包月实例已预付费，不适用')).toBeTruthy();
    fireEvent.click(screen.getByText('指定时间'));
    fireEvent.change(screen.getByTestId('schedule-at'), { target: { value: '2030-01-02T23:30' } });
    fireEvent.click(screen.getByTestId('auto-shutdown-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
      schedule: { mode: 'at', at: '2030-01-02T15:30:00.000Z' },
      spendingCap: null,
    });
  });
});

describe('the row marker', () => {
  it('shows an announced idle shutdown with 保持运行, a schedule, and why a guard stopped an instance', async () => {
    routes['GET /api/gpu/auto-shutdown'] = () =>
      ok([
        { instanceId: 1, kind: 'idle', shutdownAt: '2026-11-22T08:30:00Z', warned: true },
        { instanceId: 2, kind: 'scheduled', shutdownAt: '2026-11-22T12:00:00Z', warned: false },
      ]);
    routes['POST /api/gpu/instance/1/auto-shutdown/keep-running'] = () => ok(settings({ instanceId: 1 }));
    wrap(
      <>
        <GuardMarker inst={instance({ id: 1, status: 'RUNNING' })} />
        <GuardMarker inst={instance({ id: 2, status: 'RUNNING' })} />
        <GuardMarker
          inst={instance({ id: 3, status: 'STOPPED', stopReason: '定时关机：设定时间 2026-11-22 20:00' })}
        />
        <GuardMarker inst={instance({ id: 4, status: 'STOPPED', stopReason: '用户关机' })} />
      </>,
    );
    expect((await screen.findByTestId('guard-marker-1')).textContent).toContain(
      'GPU空闲，将于 11-22 16:30 自动关机',
    );
    expect(screen.getByTestId('guard-marker-2').textContent).toBe('定时关机 11-22 20:00');
    expect(screen.getAllByTestId('stop-reason').map((e) => e.textContent)).toEqual([
      '定时关机：设定时间 2026-11-22 20:00',
    ]);
    fireEvent.click(screen.getByTestId('keep-running-1'));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.path.endsWith('/1/auto-shutdown/keep-running'))).toBe(
        true,
      ),
    );
  });
});

describe('消费上限 page', () => {
  it('shows what is spent against each cap and saves caps with the idle default', async () => {
    const caps: SpendingCaps = {
      dailyCap: 50,
      monthlyCap: null,
      idleDefault: IDLE,
      spentToday: 41.5,
      spentThisMonth: 320.25,
    };
    routes['GET /api/user/spending-caps'] = () => ok(caps);
    routes['PUT /api/user/spending-caps'] = () => ok(caps);
    wrap(<SpendingCapsPage />);
    expect((await screen.findByTestId('spent-today', {}, { timeout: 10_000 })).textContent).toContain(
      '¥41.50 / ¥50.00',
    );
    expect(screen.getByTestId('spent-month').textContent).toContain('未设置上限');
    fireEvent.change(screen.getByTestId('monthly-cap'), { target: { value: '40' } });
    fireEvent.click(screen.getByTestId('idle-default-enabled'));
    fireEvent.click(screen.getByTestId('caps-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      dailyCap: 50,
      monthlyCap: 40,
      idleDefault: { ...IDLE, enabled: true },
    });
  });
});
