import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../platform/db/client.ts';
import { databaseUrlOf } from '../../test/server-process.ts';
import { buildServer, createTestApp, testConfig } from '../../test/test-app.ts';
import { hostGpus, hosts } from '../hosts/hosts.tables.ts';

type Item = { id: number; hostName: string; gpuIdleNum: number };

// Two replicas (own pools, own read models) on one PostgreSQL: a change invalidated on one is
// seen by the other through LISTEN/NOTIFY, long before the read model's 30 s safety net.
describe.runIf(process.env.DATABASE_URL)('market read model across two replicas on PostgreSQL', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let second: Awaited<ReturnType<typeof buildServer>>;
  let secondDb: Awaited<ReturnType<typeof openDatabase>>;

  beforeAll(async () => {
    t = await createTestApp({ demo: true });
    secondDb = await openDatabase({ url: await databaseUrlOf(t.db) });
    second = await buildServer({
      config: testConfig({ RATE_LIMITS: 'off' }),
      database: secondDb,
      webDist: '/nonexistent',
    });
    await second.ready();
  });
  afterAll(async () => {
    await second?.close();
    await secondDb?.close();
    await t?.close();
  });

  const idle = async (app: typeof second, id: number) => {
    const res = await app.inject('/api/gpu/market?size=48');
    expect(res.statusCode, res.body).toBe(200);
    const item = (res.json().data.list as Item[]).find((i) => i.id === id);
    return item?.gpuIdleNum ?? 0;
  };

  it('keeps answers until a change, then every replica drops them within moments', async () => {
    const res = await t.app.inject('/api/gpu/market?size=48');
    expect(res.statusCode, res.body).toBe(200);
    const first = res.json().data.list[0] as Item;
    expect(first.gpuIdleNum).toBeGreaterThan(0);
    expect(await idle(second, first.id)).toBe(first.gpuIdleNum); // both replicas now hold it

    // A change nobody announces stays unseen: the answers really are kept.
    const [host] = await t.db.select().from(hosts).where(eq(hosts.name, first.hostName));
    const gpus = await t.db
      .select()
      .from(hostGpus)
      .where(eq(hostGpus.hostId, host?.id as number));
    await t.db
      .update(hostGpus)
      .set({ reservedReason: 'read-model test' })
      .where(
        inArray(
          hostGpus.id,
          gpus.map((g) => g.id),
        ),
      );
    await new Promise((r) => setTimeout(r, 300));
    expect(await idle(t.app, first.id)).toBe(first.gpuIdleNum);
    expect(await idle(second, first.id)).toBe(first.gpuIdleNum);

    // The replica that wrote invalidates (after commit); the other hears it through PostgreSQL.
    second.deps.modules.market.market.invalidate();
    expect(await idle(second, first.id)).toBe(0);
    const started = Date.now();
    while ((await idle(t.app, first.id)) !== 0) {
      if (Date.now() - started > 5_000)
        throw new Error('the other replica still shows the old market after 5 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    console.log(`market change seen on the other replica after ${Date.now() - started} ms`);
  });

  it("a discount rule made on one replica prices the other one's market within moments", async () => {
    const market = async (app: typeof second) =>
      (await app.inject('/api/gpu/market?size=48')).json().data.list as (Item & {
        discountRate: number;
      })[];
    const [first] = await market(t.app); // this replica now holds the answer and the rules
    expect(first?.discountRate).toBeGreaterThan(0.5);
    const made = await second.inject({
      method: 'POST',
      url: '/api/admin/discounts',
      headers: await t.adminHeaders(),
      payload: {
        name: '跨副本折扣',
        discountRate: 0.5,
        startTime: new Date(Date.now() - 60_000).toISOString(),
        endTime: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    expect(made.statusCode, made.body).toBe(200);
    // Not the 2 s rule cache nor the read model's 30 s: the NOTIFY says the rules changed.
    const started = Date.now();
    while ((await market(t.app)).find((i) => i.id === first?.id)?.discountRate !== 0.5) {
      if (Date.now() - started > 1_500) throw new Error('the other replica still shows no discount');
      await new Promise((r) => setTimeout(r, 20));
    }
  });
});
