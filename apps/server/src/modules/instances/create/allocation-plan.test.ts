import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { gpuSkus } from '../../hosts/catalog.tables.ts';
import { hostPorts, regions } from '../../hosts/hosts.tables.ts';
import { vacuumAnalyze } from '../../system/system.repository.ts';

const clock = fixedClock('2026-11-22T08:00:00Z');
let h: Awaited<ReturnType<typeof instanceTestApp>>;
let admin: Record<string, string>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
  admin = await h.t.adminHeaders();
});
afterAll(() => h.t.close());

let nextRange = 41_000;
/** A new simulated host with 4 GPUs and 40 ports, its port pool filled; answers its id and SKU. */
async function newHost(name: string) {
  const [region] = await h.t.db.select().from(regions).limit(1);
  const start = nextRange;
  nextRange += 100;
  const res = await h.t.app.inject({
    method: 'POST',
    url: '/api/admin/hosts',
    headers: admin,
    payload: {
      name,
      regionId: region?.id,
      driver: 'simulated',
      cpuModel: 'x',
      cpuCores: 8,
      memoryGb: 64,
      portRangeStart: start,
      portRangeEnd: start + 39,
      settings: { latencyMs: 0, failureRate: 0, gpus: { model: 'RTX 4090', memoryGb: 24, count: 4 } },
      sku: { hourlyPrice: 1, cpuPerGpu: 4, memoryPerGpuGb: 16 },
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().data.id as number;
  const init = await h.t.app.inject({
    method: 'POST',
    url: `/api/admin/hosts/${id}/init-ports`,
    headers: admin,
  });
  expect(init.json().data).toMatchObject({ total: 40, allocated: 0 });
  const [sku] = await h.t.db.select().from(gpuSkus).where(eq(gpuSkus.hostId, id));
  return { id, skuId: sku?.id as number };
}

const heldPorts = async (hostId: number) =>
  (await h.t.db.select().from(hostPorts).where(eq(hostPorts.hostId, hostId))).filter(
    (p) => p.instanceId !== null,
  );

describe('create on a host the planner statistics do not know yet (issue 26)', () => {
  it('takes two ports, not every free port, after the embedded database was analyzed without the host', async () => {
    // Statistics of host_ports that hold another host's ports only: what the PGlite vacuum task
    // (this VACUUM (ANALYZE), hourly) leaves when a host is registered after its last run.
    await newHost('plan-known');
    await vacuumAnalyze(h.t.db);
    const fresh = await newHost('plan-new');
    const u = await h.funded(100);
    const res = await h.create(u.headers, {
      machineId: fresh.skuId,
      instanceName: 'plan',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'hourly',
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id as number;
    const held = await heldPorts(fresh.id);
    expect(held.map((p) => p.instanceId)).toEqual([id, id]);
    const detail = await h.t.app.inject({
      method: 'GET',
      url: `/api/admin/hosts/${fresh.id}`,
      headers: admin,
    });
    expect(detail.json().data).toMatchObject({ portTotal: 40, portAllocated: 2 });
  });
});
