import { hostDetailSchema, SECRET_MASK } from '@gpu/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instances } from '../instances/instances.tables.ts';
import { allocateOnHost } from './allocation.ts';
import { hostGpus, hostPorts, hosts } from './hosts.tables.ts';

import {
  callIn,
  hostsTestApp,
  lastAuditIn,
  type Method,
  marketItemIn,
  simulatedHostIn,
  type T,
} from './hosts.test-helpers.ts';

let t: T;
let admin: Record<string, string>;
let regionId: number;

beforeAll(async () => {
  ({ t, admin, regionId } = await hostsTestApp());
});
afterAll(() => t.close());

const call = (method: Method, url: string, payload?: unknown, headers = admin) =>
  callIn(t, method, url, payload, headers);
const simulatedHost = (name: string, over: Record<string, unknown> = {}) =>
  simulatedHostIn(regionId, name, over);
const lastAudit = (action: string) => lastAuditIn(t, action);
const marketItem = (hostName: string) => marketItemIn(t, hostName);

describe('admin host API: writing', () => {
  it('creates a host: declared GPUs, port pool, SKU on the market, audit row', async () => {
    const res = await call('POST', '/api/admin/hosts', simulatedHost('sh-a-5090-01'));
    expect(res.statusCode).toBe(200);
    const host = hostDetailSchema.parse(res.json().data);
    expect(host).toMatchObject({
      gpuTotal: 4,
      gpuIdle: 4,
      portTotal: 50,
      portAllocated: 0,
      gpuSource: 'simulated',
    });
    expect(host.skus).toEqual([
      expect.objectContaining({ gpuModel: 'RTX 5090', memoryGb: 32, hourlyPrice: 2.88, cpuPerGpu: 16 }),
    ]);
    expect(await marketItem('sh-a-5090-01')).toMatchObject({ gpuNum: 4, gpuIdleNum: 4, price: 2.88 });
    const audit = await lastAudit('hosts.create');
    expect(audit).toMatchObject({ adminId: expect.any(Number), target: `host:${host.id}`, ip: '127.0.0.1' });
  });

  it.each([
    [{ name: 'bad name!' }, 'name'],
    [{ regionId: 0 }, 'regionId'],
    [{ driver: 'kvm' }, 'driver'],
    [{ portRangeStart: 50_000, portRangeEnd: 49_000 }, 'portRangeEnd'],
    [{ portRangeStart: 1_100, portRangeEnd: 60_000 }, 'portRangeEnd'],
    [{ settings: { latencyMs: -1 } }, 'settings.latencyMs'],
    [{ sku: { hourlyPrice: -1 } }, 'sku.hourlyPrice'],
    [{ driver: 'docker', settings: { connection: 'tcp', host: '10.0.0.5' } }, 'settings.tls'],
    [{ driver: 'docker', settings: { connection: 'ftp' } }, 'settings.connection'],
  ])('refuses %j with a 400 naming %s', async (over, field) => {
    const res = await call(
      'POST',
      '/api/admin/hosts',
      simulatedHost(`v-${Math.random().toString(36).slice(2, 8)}`, over),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
    expect(res.json().message).toMatch(/[\u4e00-\u9fa5]/);
  });

  it('refuses a taken name (409) and an unknown region (400)', async () => {
    const dup = await call('POST', '/api/admin/hosts', simulatedHost('ah-a-4090-01'));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('主机名「ah-a-4090-01」已存在');
    const region = await call('POST', '/api/admin/hosts', simulatedHost('nowhere-01', { regionId: 99_999 }));
    expect(region.statusCode).toBe(400);
    expect(region.json().message).toContain('regionId');
  });

  it('keeps docker secrets: masked when read, kept when sent back masked', async () => {
    const tls = { ca: 'CA-PEM', cert: 'CERT-PEM', key: 'KEY-PEM-SECRET' };
    const res = await call(
      'POST',
      '/api/admin/hosts',
      simulatedHost('gz-docker-01', {
        driver: 'docker',
        settings: {
          connection: 'tcp',
          host: '10.0.0.5',
          tls,
          gpus: { model: 'L40S', memoryGb: 48, count: 2 },
        },
      }),
    );
    expect(res.statusCode).toBe(200);
    const host = res.json().data;
    expect(host.settings.tls).toEqual({ ca: 'CA-PEM', cert: 'CERT-PEM', key: SECRET_MASK });
    expect(JSON.stringify(await lastAudit('hosts.create'))).not.toContain('KEY-PEM-SECRET');
    const put = await call('PUT', `/api/admin/hosts/${host.id}`, {
      settings: { ...host.settings, port: 2376 },
    });
    expect(put.statusCode).toBe(200);
    const [row] = await t.db.select().from(hosts).where(eq(hosts.id, host.id));
    // Kept sealed (host-secrets.test.ts): the row holds the sealed key, which opens to the one sent.
    expect(row?.settings).toMatchObject({ port: 2376, tls: { key: expect.stringMatching(/^s1\./) } });
    const tlsKey = (row?.settings as { tls?: { key?: string } } | undefined)?.tls?.key ?? '';
    expect(t.app.deps.modules.hosts.box.open(tlsKey)).toBe('KEY-PEM-SECRET');
    const bad = await call('PUT', `/api/admin/hosts/${host.id}`, { settings: { connection: 'tcp' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('settings.host');
  });

  it('updates part of a host: price, declared GPUs, port range', async () => {
    const { id } = (await call('POST', '/api/admin/hosts', simulatedHost('sh-a-5090-02'))).json().data;
    const res = await call('PUT', `/api/admin/hosts/${id}`, {
      sku: { hourlyPrice: 3.18 },
      portRangeEnd: 45_099,
      settings: { latencyMs: 0, failureRate: 0, gpus: { model: 'RTX 5090', memoryGb: 32, count: 6 } },
    });
    expect(res.statusCode).toBe(200);
    const host = res.json().data;
    expect(host).toMatchObject({ gpuTotal: 6, portTotal: 100, cpuCores: 96 });
    expect(host.skus).toEqual([expect.objectContaining({ hourlyPrice: 3.18, cpuPerGpu: 16 })]);
    expect(await marketItem('sh-a-5090-02')).toMatchObject({ gpuNum: 6, price: 3.18 });
    expect(await lastAudit('hosts.update')).toMatchObject({ target: `host:${id}` });
  });

  it('changes the status: a disabled host leaves the market', async () => {
    const { id } = (await call('POST', '/api/admin/hosts', simulatedHost('sh-a-5090-03'))).json().data;
    const res = await call('PATCH', `/api/admin/hosts/${id}/status`, { status: 'DISABLED' });
    expect(res.json().data.status).toBe('DISABLED');
    expect(await marketItem('sh-a-5090-03')).toBeUndefined();
    expect(await lastAudit('hosts.status')).toMatchObject({ detail: { from: 'ACTIVE', to: 'DISABLED' } });
    expect((await call('PATCH', `/api/admin/hosts/${id}/status`, { status: 'GONE' })).statusCode).toBe(400);
  });

  it('tests the connection: stores the probe and the GPU inventory; an offline host is reported', async () => {
    const { id } = (await call('POST', '/api/admin/hosts', simulatedHost('sh-a-5090-04'))).json().data;
    const ok = await call('POST', `/api/admin/hosts/${id}/test-connection`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      message: '连接成功',
      data: { reachable: true, engineVersion: 'simulated', error: null },
    });
    expect(ok.json().data.host).toMatchObject({ lastProbeOk: true, gpuTotal: 4, nvidiaDriver: '550.127.05' });

    await call('PUT', `/api/admin/hosts/${id}`, {
      settings: {
        latencyMs: 0,
        failureRate: 0,
        unreachable: true,
        gpus: { model: 'RTX 5090', memoryGb: 32, count: 4 },
      },
    });
    const down = await call('POST', `/api/admin/hosts/${id}/test-connection`);
    expect(down.json()).toMatchObject({ message: '连接失败', data: { reachable: false } });
    expect(down.json().data.host).toMatchObject({ lastProbeOk: false, gpuTotal: 4 });
    expect(down.json().data.host.lastProbeError).toBeTruthy();
    expect(await lastAudit('hosts.test_connection')).toMatchObject({ detail: { reachable: false } });
  });

  it('inits ports idempotently and refuses to shrink under allocated ports', async () => {
    const { id } = (await call('POST', '/api/admin/hosts', simulatedHost('sh-a-5090-05'))).json().data;
    const again = await call('POST', `/api/admin/hosts/${id}/init-ports`);
    expect(again.json().data).toEqual({ total: 50, added: 0, removed: 0, allocated: 0 });
    await t.db.transaction((tx) =>
      allocateOnHost(tx, { hostId: id, instanceId: 77, gpuCount: 1, portCount: 50 }),
    );
    const shrink = await call('PUT', `/api/admin/hosts/${id}`, { portRangeEnd: 45_010 });
    expect(shrink.statusCode).toBe(409);
    expect(shrink.json().message).toContain('不能缩小端口范围');
    await t.db.update(hosts).set({ portRangeEnd: 45_010 }).where(eq(hosts.id, id));
    const refused = await call('POST', `/api/admin/hosts/${id}/init-ports`);
    expect(refused.statusCode).toBe(409);
    await t.db
      .update(hostPorts)
      .set({ instanceId: null })
      .where(and(eq(hostPorts.hostId, id)));
    const shrunk = await call('POST', `/api/admin/hosts/${id}/init-ports`);
    expect(shrunk.json().data).toEqual({ total: 11, added: 0, removed: 39, allocated: 0 });
    expect(await lastAudit('hosts.init_ports')).toMatchObject({ target: `host:${id}` });
  });

  it('deletes a host only when nothing is allocated on it', async () => {
    const { id } = (await call('POST', '/api/admin/hosts', simulatedHost('sh-a-5090-06'))).json().data;
    await t.db.transaction((tx) => allocateOnHost(tx, { hostId: id, instanceId: 88, gpuCount: 1 }));
    const busy = await call('DELETE', `/api/admin/hosts/${id}`);
    expect(busy.statusCode).toBe(409);
    await t.db.update(hostGpus).set({ instanceId: null }).where(eq(hostGpus.hostId, id));
    await t.db.update(hostPorts).set({ instanceId: null }).where(eq(hostPorts.hostId, id));
    const res = await call('DELETE', `/api/admin/hosts/${id}`);
    expect(res.json()).toMatchObject({ success: true, data: { id } });
    expect((await call('GET', `/api/admin/hosts/${id}`)).statusCode).toBe(404);
    expect(await marketItem('sh-a-5090-06')).toBeUndefined();
    expect(await lastAudit('hosts.delete')).toMatchObject({ detail: { name: 'sh-a-5090-06' } });
  });

  it('refuses to delete a host that ever had an instance with a 409 in Chinese (was a 500)', async () => {
    const detail = (await call('POST', '/api/admin/hosts', simulatedHost('sh-a-5090-07'))).json().data;
    const user = await t.createUser();
    await t.db.insert(instances).values({
      tenantId: user.user.tenantId,
      userId: user.user.id,
      hostId: detail.id,
      skuId: detail.skus[0].id,
      regionId,
      name: 'old',
      image: 'ubuntu:22.04',
      gpuModel: 'RTX 5090',
      gpuCount: 1,
      billingType: 'hourly',
      hourlyRate: 0,
      status: 'RELEASED',
      rootPasswordEnc: 'x',
    });
    const res = await call('DELETE', `/api/admin/hosts/${detail.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ success: false, code: '409', data: null });
    expect(res.json().message).toContain('历史实例');
    expect((await call('GET', `/api/admin/hosts/${detail.id}`)).statusCode).toBe(200);
  });
});
