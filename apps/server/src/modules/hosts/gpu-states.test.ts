import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../test/instances.ts';
import { hostGpus, hosts } from './hosts.tables.ts';

/**
 * Issue 28: the hosts page, 实例管理, the market and the SKU list counted free GPUs each its own
 * way. A fleet with GPUs in every state; every API must report the same figures.
 */
const clock = fixedClock('2026-11-22T08:00:00Z');
let h: Awaited<ReturnType<typeof instanceTestApp>>;
let admin: Record<string, string>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
  admin = await h.t.adminHeaders();
});
afterAll(() => h.t.close());

const L40S = 'nm-a-l40s-01';
const ASCEND = 'nm-a-910b-01';
const get = async (url: string) => {
  const res = await h.t.app.inject({ method: 'GET', url, headers: admin });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json().data;
};
type HostRow = { name: string; gpuTotal: number; gpuIdle: number; gpuAllocated: number; gpuReserved: number };
type ModelRow = { model: string; total: number; busy: number; reserved: number; idle: number };

async function create(headers: Record<string, string>, billingType: string, gpuAmount: number) {
  const res = await h.create(headers, {
    machineId: await h.idOf(L40S),
    instanceName: `states-${billingType}-${gpuAmount}`,
    image: IMAGE,
    gpuAmount,
    billingType,
    ...(billingType === 'hourly' ? {} : { duration: 1 }),
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().data.id as number;
  expect((await h.view(headers, id)).status).toBe('RUNNING');
  return id;
}

describe('one definition of 空闲 / 占用 / 保留', () => {
  it('hosts list, host statistics, instance statistics, SKUs and the market agree', async () => {
    const u = await h.funded(5_000);
    // L40S (8 GPUs, none held in the demo): 2 occupied by a running pay-as-you-go instance …
    await create(u.headers, 'hourly', 2);
    // … 1 reserved by a powered-off daily package (packages keep their GPUs) …
    const pkg = await create(u.headers, 'daily', 1);
    expect((await h.action(u.headers, 'power_off', pkg)).statusCode).toBe(200);
    expect((await h.view(u.headers, pkg)).status).toBe('STOPPED');
    // … none held by a powered-off pay-as-you-go instance (its GPUs go back) …
    const payg = await create(u.headers, 'hourly', 1);
    expect((await h.action(u.headers, 'power_off', payg)).statusCode).toBe(200);
    expect((await h.view(u.headers, payg)).status).toBe('STOPPED');
    // … and 1 taken out of sale by hand: 8 = 4 idle + 2 occupied + 2 reserved.
    const [host] = await h.t.db.select().from(hosts).where(eq(hosts.name, L40S));
    const [free] = await h.t.db
      .select()
      .from(hostGpus)
      .where(and(eq(hostGpus.hostId, host?.id as number), isNull(hostGpus.instanceId)))
      .orderBy(hostGpus.index);
    await h.t.db
      .update(hostGpus)
      .set({ reservedReason: '维护' })
      .where(eq(hostGpus.id, free?.id as number));
    // The Ascend host is disabled: its free GPUs are reserved too (nothing can be allocated there).
    const [ascend] = await h.t.db.select().from(hosts).where(eq(hosts.name, ASCEND));
    const disable = await h.t.app.inject({
      method: 'PATCH',
      url: `/api/admin/hosts/${ascend?.id}/status`,
      headers: admin,
      payload: { status: 'DISABLED' },
    });
    expect(disable.statusCode, disable.body).toBe(200);

    const list = (await get('/api/admin/hosts?size=100')).list as HostRow[];
    const l40s = list.find((r) => r.name === L40S);
    expect(l40s).toMatchObject({ gpuTotal: 8, gpuIdle: 4, gpuAllocated: 2, gpuReserved: 2 });
    expect(list.find((r) => r.name === ASCEND)).toMatchObject({ gpuTotal: 8, gpuIdle: 0, gpuReserved: 8 });
    for (const r of list) expect(r.gpuIdle + r.gpuAllocated + r.gpuReserved, r.name).toBe(r.gpuTotal);
    // The host's GPU grid labels each GPU by the same definition.
    const states = async (id: number) =>
      ((await get(`/api/admin/hosts/${id}`)).gpus as { state: string }[]).map((g) => g.state).sort();
    expect(await states(host?.id as number)).toEqual([
      ...Array(4).fill('idle'),
      ...Array(2).fill('occupied'),
      ...Array(2).fill('reserved'),
    ]);
    expect(await states(ascend?.id as number)).toEqual(Array(8).fill('reserved'));

    const sum = (k: keyof Omit<HostRow, 'name'>) => list.reduce((a, r) => a + r[k], 0);
    const stats = await get('/api/admin/hosts/statistics');
    expect(stats).toMatchObject({
      totalGpus: sum('gpuTotal'),
      idleGpus: sum('gpuIdle'),
      allocatedGpus: sum('gpuAllocated'),
      reservedGpus: sum('gpuReserved'),
    });
    // 使用率 is what is not idle: it can never contradict the idle count beside it.
    expect(stats.gpuUtilization).toBeCloseTo(1 - stats.idleGpus / stats.totalGpus, 4);

    const monitor = (await get('/api/admin/instance-monitor/statistics')).gpus as ModelRow[];
    expect(monitor.find((g) => g.model === 'L40S')).toEqual({
      model: 'L40S',
      total: 8,
      busy: 2,
      reserved: 2,
      idle: 4,
    });
    expect(monitor.reduce((a, g) => a + g.idle, 0)).toBe(stats.idleGpus);
    expect(monitor.reduce((a, g) => a + g.busy, 0)).toBe(stats.allocatedGpus);
    expect(monitor.reduce((a, g) => a + g.reserved, 0)).toBe(stats.reservedGpus);

    const skus = (await get('/api/admin/gpu-sku?size=100')).list as {
      hostName: string;
      gpuIdle: number;
      gpuTotal: number;
    }[];
    expect(skus.find((s) => s.hostName === L40S)).toMatchObject({ gpuIdle: 4, gpuTotal: 8 });

    const market = await h.market();
    expect(market.find((i) => i.hostName === L40S)?.gpuIdleNum).toBe(l40s?.gpuIdle);
    for (const item of market) {
      const row = list.find((r) => r.name === item.hostName);
      if (row) expect(item.gpuIdleNum, item.hostName).toBe(row.gpuIdle);
    }
    // The disabled host is not for sale at all.
    expect(market.some((i) => i.hostName === ASCEND)).toBe(false);

    await h.t.app.inject({
      method: 'PATCH',
      url: `/api/admin/hosts/${ascend?.id}/status`,
      headers: admin,
      payload: { status: 'ACTIVE' },
    });
  });

  it('counts the ports a host hands out from its range, before any instance was placed', async () => {
    const list = (await get('/api/admin/hosts?size=100')).list as {
      name: string;
      driver: string;
      portTotal: number;
      portAllocated: number;
      portRangeStart: number;
      portRangeEnd: number;
    }[];
    const unused = list.find((r) => r.name === 'ah-a-3090-01');
    // The demo writes no port rows; the pool is the range (the page said "0 / 0").
    expect(unused).toMatchObject({ portTotal: 200, portAllocated: 0 });
    // The L40S host's instances hold 2 ports each: running, powered-off package, powered-off
    // pay-as-you-go (a stopped container keeps its port bindings).
    expect(list.find((r) => r.name === L40S)).toMatchObject({ portTotal: 200, portAllocated: 6 });
    const stats = await get('/api/admin/hosts/statistics');
    const local = list.filter((r) => r.driver !== 'vastai');
    expect(stats.totalPorts).toBe(local.reduce((a, r) => a + r.portRangeEnd - r.portRangeStart + 1, 0));
    expect(stats.allocatedPorts).toBe(list.reduce((a, r) => a + r.portAllocated, 0));
  });
});
