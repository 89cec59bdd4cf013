import { hostDetailSchema, hostSchema } from '@gpu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostGpus, hosts } from './hosts.tables.ts';

import { callIn, hostsTestApp, type Method, type T } from './hosts.test-helpers.ts';

let t: T;
let admin: Record<string, string>;

beforeAll(async () => {
  ({ t, admin } = await hostsTestApp());
});
afterAll(() => t.close());

const call = (method: Method, url: string, payload?: unknown, headers = admin) =>
  callIn(t, method, url, payload, headers);

describe('admin host API: access', () => {
  it('answers 401 without an admin token, and to a user token', async () => {
    expect((await call('GET', '/api/admin/hosts', undefined, {})).statusCode).toBe(401);
    const { headers } = await t.createUser();
    const res = await call('GET', '/api/admin/hosts', undefined, headers);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, code: '401' });
  });
});

describe('admin host API: reading', () => {
  it('lists the demo hosts with GPU and port counts, filtered and paged', async () => {
    const res = await call('GET', '/api/admin/hosts?size=50');
    expect(res.statusCode).toBe(200);
    const page = res.json().data;
    expect(page.total).toBeGreaterThanOrEqual(7);
    const h100 = hostSchema.parse(page.list.find((h: { name: string }) => h.name === 'gd-b-h100-01'));
    expect(h100).toMatchObject({
      driver: 'simulated',
      status: 'ACTIVE',
      gpuTotal: 8,
      gpuReserved: 6,
      gpuIdle: 2,
      gpuAllocated: 0,
    });
    expect(h100.skus[0]?.hourlyPrice).toBe(15.8);
    const filtered = (await call('GET', '/api/admin/hosts?keyword=A100&driver=simulated')).json().data;
    expect(filtered.list.map((h: { name: string }) => h.name)).toEqual(['bj-a-a100-01']);
    const paged = (await call('GET', '/api/admin/hosts?page=2&size=3')).json().data;
    expect(paged).toMatchObject({ page: 2, size: 3 });
    expect(paged.list).toHaveLength(3);
    // The unfiltered page (prepared) and a filter that keeps every host (general query) agree.
    const same = (await call('GET', '/api/admin/hosts?page=2&size=3&keyword=-')).json().data;
    expect(same.total).toBe(page.total);
    expect(paged).toMatchObject({ total: page.total, list: same.list });
    expect((await call('GET', '/api/admin/hosts?page=99&size=3')).json().data).toMatchObject({
      total: page.total,
      list: [],
    });
  });

  it('lists by driver type and refuses an unknown type', async () => {
    const res = await call('GET', '/api/admin/hosts/type/simulated');
    expect(res.json().data.length).toBeGreaterThanOrEqual(7);
    expect((await call('GET', '/api/admin/hosts/type/docker')).json().data).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ driver: 'simulated' })]),
    );
    const bad = await call('GET', '/api/admin/hosts/type/kvm');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('type');
  });

  it('shows one host with its GPUs, and 404 for an unknown one', async () => {
    const [row] = await t.db.select().from(hosts).where(eq(hosts.name, 'ah-a-4090-01'));
    const detail = hostDetailSchema.parse((await call('GET', `/api/admin/hosts/${row?.id}`)).json().data);
    expect(detail.gpus).toHaveLength(8);
    expect(detail.gpus.filter((g) => g.reservedReason)).toHaveLength(3);
    const missing = await call('GET', '/api/admin/hosts/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('主机不存在');
    expect((await call('GET', '/api/admin/hosts/abc')).statusCode).toBe(400);
  });

  it('sums hosts, GPUs and ports in the statistics', async () => {
    const s = (await call('GET', '/api/admin/hosts/statistics')).json().data;
    const [gpuCount] = await t.db.$count(hostGpus).then((n) => [n]);
    expect(s.totalGpus).toBe(gpuCount);
    expect(s.totalHosts).toBe(await t.db.$count(hosts));
    expect(s.idleGpus + s.allocatedGpus + s.reservedGpus).toBe(s.totalGpus);
    expect(s.byDriver.simulated).toBeGreaterThanOrEqual(7);
    expect(s.byStatus.ACTIVE).toBeGreaterThanOrEqual(1);
    expect(s.gpuUtilization).toBeGreaterThanOrEqual(0);
  });
});
