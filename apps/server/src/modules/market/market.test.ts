import { marketListSchema } from '@gpu/shared';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../app/db/test-utils.ts';
import { hostGpus, hosts } from '../hosts/hosts.tables.ts';
import { DEMO_HOSTS } from '../system/demo-data.ts';

describe('GET /api/gpu/market', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const market = async (host: string, query = '') => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/gpu/market${query}`,
      headers: { 'x-tenant-host': host },
    });
    expect(res.statusCode).toBe(200);
    return marketListSchema.parse(res.json().data);
  };

  it('lists every seeded SKU with the SPEC fields for the default tenant, in region order', async () => {
    const page = await market('localhost', '?size=48');
    expect(page.total).toBe(DEMO_HOSTS.length);
    expect(page.list).toHaveLength(DEMO_HOSTS.length);
    expect(page.list[0]?.regionName).toBe('安徽A区');
    expect(page.list.at(-1)?.regionName).toBe('海外区（美国）');
    const h100 = page.list.find((i) => i.gpuName === 'H100 80GB');
    expect(h100).toMatchObject({
      hostName: 'gd-b-h100-01',
      gpuNum: 8,
      gpuIdleNum: 2,
      price: 15.8,
      memoryGb: 80,
      isLocalDocker: true,
    });
  });

  it('counts idle GPUs from live allocation', async () => {
    const [host] = await t.db.select().from(hosts).where(eq(hosts.name, 'nm-a-l40s-01'));
    const before = (await market('localhost', '?size=48')).list.find((i) => i.hostName === 'nm-a-l40s-01');
    expect(before?.gpuIdleNum).toBe(8);
    await t.db
      .update(hostGpus)
      .set({ instanceId: 999 })
      .where(and(eq(hostGpus.hostId, host?.id ?? -1), eq(hostGpus.index, 0), isNull(hostGpus.instanceId)));
    const after = (await market('localhost', '?size=48')).list.find((i) => i.hostName === 'nm-a-l40s-01');
    expect(after?.gpuIdleNum).toBe(7);
  });

  it('shows a tenant only its visible regions', async () => {
    const page = await market('127.0.0.1', '?size=48');
    const regionNames = new Set(page.list.map((i) => i.regionName));
    expect([...regionNames]).toEqual(['安徽A区', '北京A区', '广东B区']);
    expect(page.total).toBe(page.list.length);
  });

  it('pages with the allowed sizes', async () => {
    const p1 = await market('localhost', '?page=1&size=12');
    expect(p1.size).toBe(12);
    const p2 = await market('localhost', '?page=2&size=12');
    expect(p2.list).toHaveLength(0);
    expect(p2.total).toBe(p1.total);
  });

  it.each(['?size=10', '?page=0', '?page=x', '?size=-12'])('rejects %s with a 400', async (q) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/gpu/market${q}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
  });
});
