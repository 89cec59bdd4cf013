import { gpuAvailabilitySchema } from '@gpu/shared';
import { eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, midMinuteClock } from '../../test/test-app.ts';
import { instances } from '../instances/instances.tables.ts';
import { allocateOnHost } from './allocation.ts';
import { gpuSkus } from './catalog.tables.ts';
import { createInstanceContainer } from './containers.usecases.ts';
import { buildInstanceContainerSpec } from './drivers/instance-spec.ts';
import { generateRootPassword } from './hosts.models.ts';
import { hostGpus, hosts, regions } from './hosts.tables.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;
let t: T;
let user: Awaited<ReturnType<T['createUser']>>;
let other: Awaited<ReturnType<T['createUser']>>;

beforeAll(async () => {
  t = await createTestApp();
  user = await t.createUser();
  other = await t.createUser();
});
afterAll(() => t.close());

const hostNamed = async (name: string) => {
  const [h] = await t.db.select().from(hosts).where(eq(hosts.name, name));
  return h as typeof hosts.$inferSelect;
};

describe('GET /api/gpu/docker/gpus/available', () => {
  const get = (query: string, headers = user.headers) =>
    t.app.inject({ method: 'GET', url: `/api/gpu/docker/gpus/available${query}`, headers });

  it('needs a signed-in user', async () => {
    expect((await get('', { 'x-tenant-host': 'localhost' } as never)).statusCode).toBe(401);
  });

  it("answers a host's free and used GPU ids (reserved count as used)", async () => {
    const host = await hostNamed('ah-a-4090-01');
    const res = await get(`?hostId=${host.id}`);
    expect(res.statusCode).toBe(200);
    expect(gpuAvailabilitySchema.parse(res.json().data)).toEqual({
      hostId: host.id,
      total: 8,
      free: 5,
      freeIds: [3, 4, 5, 6, 7],
      usedIds: [0, 1, 2],
    });
    const four = (await get(`?hostId=${host.id}&totalGpu=4`)).json().data;
    expect(four).toMatchObject({ total: 4, free: 1, freeIds: [3], usedIds: [0, 1, 2] });
  });

  it('uses the first local host without a hostId', async () => {
    const res = await get('?totalGpu=8');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.total).toBe(8);
  });

  it("hides hosts outside the tenant's regions and refuses bad input", async () => {
    const aurora = await t.createUser({ host: '127.0.0.1' });
    const hidden = await hostNamed('nm-a-l40s-01');
    const res = await get(`?hostId=${hidden.id}`, aurora.headers);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('主机不存在');
    expect((await get('?hostId=999999')).statusCode).toBe(404);
    const bad = await get('?totalGpu=0');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('totalGpu');
  });
});

describe('instances and power actions before the instances module', () => {
  it('lists no instances: none exist yet', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/gpu/docker/instances',
      headers: user.headers,
    });
    expect(res.json()).toMatchObject({ success: true, data: [] });
  });

  it.each(['power_off', 'power_on', 'release'])(
    'answers %s for an unknown instance with 404',
    async (action) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/gpu/docker/${action}?id=12`,
        headers: user.headers,
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('实例不存在');
      const noId = await t.app.inject({
        method: 'POST',
        url: `/api/gpu/docker/${action}`,
        headers: user.headers,
      });
      expect(noId.statusCode).toBe(400);
      expect(noId.json().message).toContain('id');
    },
  );
});

describe('POST /api/gpu/docker/cleanup', () => {
  /** A simulated host with two T4s and a SKU, as an admin would register it. */
  const simulatedHost = async (name: string, extra: Record<string, unknown> = {}) => {
    const [region] = await t.db.select().from(regions).limit(1);
    const [host] = await t.db
      .insert(hosts)
      .values({
        regionId: region?.id as number,
        name,
        driver: 'simulated',
        portRangeStart: name.endsWith('01') ? 46_000 : 46_100,
        portRangeEnd: name.endsWith('01') ? 46_009 : 46_109,
        settings: {
          latencyMs: 0,
          failureRate: 0,
          images: ['img:1'],
          gpus: { model: 'T4', memoryGb: 16, count: 2 },
          ...extra,
        },
      })
      .returning();
    const hostId = host?.id as number;
    await t.db
      .insert(hostGpus)
      .values(
        [0, 1].map((index) => ({ hostId, index, uuid: `GPU-${name}-${index}`, model: 'T4', memoryGb: 16 })),
      );
    const [sku] = await t.db
      .insert(gpuSkus)
      .values({
        hostId,
        gpuModel: 'T4',
        memoryGb: 16,
        cpuPerGpu: 4,
        systemDiskGb: 30,
        dataDiskGb: 50,
        hourlyPrice: 0,
      })
      .returning();
    return {
      host: host as typeof hosts.$inferSelect,
      hostId,
      skuId: sku?.id as number,
      regionId: region?.id as number,
    };
  };
  /** An instance row of `owner` on `place`, already ended (its container may be left behind). */
  const endedInstance = async (
    place: { hostId: number; skuId: number; regionId: number },
    owner: { id: number; tenantId: number },
  ) => {
    const [row] = await t.db
      .insert(instances)
      .values({
        tenantId: owner.tenantId,
        userId: owner.id,
        hostId: place.hostId,
        skuId: place.skuId,
        regionId: place.regionId,
        name: 'old',
        image: 'img:1',
        gpuModel: 'T4',
        gpuCount: 1,
        billingType: 'hourly',
        hourlyRate: 0,
        status: 'RELEASED',
        rootPasswordEnc: 'x',
      })
      .returning();
    return row?.id as number;
  };

  it("removes the user's containers whose instance is gone, returns their GPUs and ports, leaves others alone", async () => {
    const place = await simulatedHost('cleanup-sim-01');
    const { hostId, host } = place;
    // A host where the caller never had an instance (and that does not answer): not contacted.
    const elsewhere = await simulatedHost('cleanup-sim-02', { unreachable: true });
    await endedInstance(elsewhere, other.user);
    const deps = t.app.deps.modules.hosts;
    const containerFor = async (instanceId: number, userId: number) => {
      const a = await t.db.transaction((tx) => allocateOnHost(tx, { hostId, instanceId, gpuCount: 1 }));
      const spec = buildInstanceContainerSpec({
        instanceId,
        userId,
        image: 'img:1',
        gpuIndices: a.gpus.map((g) => g.index),
        ports: a.ports,
        sku: { cpuPerGpu: 4, memoryPerGpuGb: 16, systemDiskGb: 30, dataDiskGb: 50 },
        rootPassword: generateRootPassword(),
        jupyterToken: 'jupyter-token',
      });
      return (await createInstanceContainer(deps, hostId, spec)).containerId;
    };
    const myInstance = await endedInstance(place, user.user);
    const theirInstance = await endedInstance(place, other.user);
    const mine = await containerFor(myInstance, user.user.id);
    const theirs = await containerFor(theirInstance, other.user.id);

    const res = await t.app.inject({ method: 'POST', url: '/api/gpu/docker/cleanup', headers: user.headers });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.removed).toEqual([{ hostId, containerId: mine, instanceId: myInstance }]);
    expect(data.failedHosts).toEqual([]);

    const driver = deps.hostDrivers.forHost(host);
    expect((await driver.list()).map((c) => c.id)).toEqual([theirs]);
    const held = await t.db.select().from(hostGpus).where(isNotNull(hostGpus.instanceId));
    expect(held.filter((g) => g.hostId === hostId).map((g) => g.instanceId)).toEqual([theirInstance]);
    const [after] = await t.db.select().from(hosts).where(eq(hosts.id, hostId));
    expect(after?.diskLimitSupported).toBe(true);

    // The other customer's hosts include the one that does not answer: reported without the
    // driver's words (no address, no engine message), by a fixed sentence.
    const theirRes = await t.app.inject({
      method: 'POST',
      url: '/api/gpu/docker/cleanup',
      headers: other.headers,
    });
    expect(theirRes.json().data.removed).toEqual([
      { hostId, containerId: theirs, instanceId: theirInstance },
    ]);
    expect(theirRes.json().data.failedHosts).toEqual([
      { hostId: elsewhere.hostId, message: '主机暂时无法清理，请稍后重试' },
    ]);
  });

  it('contacts no host for a customer who never had an instance', async () => {
    const stranger = await t.createUser();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/gpu/docker/cleanup',
      headers: stranger.headers,
    });
    expect(res.json().data).toEqual({ checked: 0, removed: [], failedHosts: [] });
  });

  it('is rate-limited per customer (3 a minute)', async () => {
    const limited = await createTestApp({
      demo: false,
      config: { RATE_LIMITS: 'on' },
      clock: midMinuteClock(),
    });
    try {
      const [a, b] = [await limited.createUser(), await limited.createUser()];
      const call = (headers: Record<string, string>) =>
        limited.app.inject({ method: 'POST', url: '/api/gpu/docker/cleanup', headers });
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push((await call(a.headers)).statusCode);
      expect(codes).toEqual([200, 200, 200, 429]);
      expect((await call(b.headers)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
