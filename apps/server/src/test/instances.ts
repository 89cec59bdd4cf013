import { type Instance, yuanToUnits } from '@gpu/shared';
import { eq, sql } from 'drizzle-orm';
import { gpuSkus } from '../modules/hosts/catalog.tables.ts';
import { hostGpus, hosts } from '../modules/hosts/hosts.tables.ts';
import { postLedgerEntry, reconcileAccount } from '../modules/ledger/ledger.ts';
import type { Clock } from '../platform/clock.ts';
import { createTestApp } from './test-app.ts';

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** The demo world with instant simulated hosts, plus helpers to fund users and read balances. */
export async function instanceTestApp(clock: Clock, config?: Record<string, string>) {
  const t = await createTestApp({ clock, config });
  await t.db.update(hosts).set({ settings: sql`${hosts.settings} || '{"latencyMs":0}'::jsonb` });
  let seq = 0;
  const deps = t.app.deps.modules.instances;
  const market = async () => {
    t.app.deps.modules.market.market.invalidate();
    return (await t.app.inject({ method: 'GET', url: '/api/gpu/market?size=48' })).json().data.list as {
      id: number;
      hostName: string;
      gpuIdleNum: number;
    }[];
  };
  const idOf = async (host: string) => (await market()).find((i) => i.hostName === host)?.id as number;
  return {
    t,
    deps,
    market,
    idOf,
    /** A user with `yuan` on their balance. */
    async funded(yuan: number, host = 'localhost') {
      const u = await t.createUser({ host });
      if (yuan > 0) {
        await t.db.transaction((tx) =>
          postLedgerEntry(tx, {
            userId: u.user.id,
            kind: 'recharge',
            amount: yuanToUnits(yuan),
            idempotencyKey: `test:${u.user.id}:${++seq}`,
          }),
        );
      }
      return u;
    },
    async balance(userId: number) {
      const r = await reconcileAccount(t.db, userId);
      if (!r.balanced) throw new Error(`account ${userId} does not match its ledger`);
      return r.available / 10_000;
    },
    /**
     * POST create, then waits for the provisioning job it kicked (the answer itself is the
     * instance in CREATING); read the outcome with `view`.
     */
    async create(headers: Record<string, string>, body: Record<string, unknown>) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/gpu/instance/create',
        headers,
        payload: body,
      });
      await deps.jobs.drain();
      return res;
    },
    /** The instance as its owner's list shows it. */
    async view(headers: Record<string, string>, id: number) {
      const list = await t.app.inject({ method: 'GET', url: '/api/gpu/instances?size=100', headers });
      const found = (list.json().data.list as Instance[]).find((i) => i.id === id);
      if (!found) throw new Error(`instance ${id} is not in its owner's list`);
      return found;
    },
    /**
     * POST a power action, then waits for the job it kicked (the answer itself is the instance
     * in STOPPING / STARTING / RELEASING); read the outcome with `view`.
     */
    async action(headers: Record<string, string>, name: 'power_off' | 'power_on' | 'release', id: number) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/gpu/instance/${name}?instance_uuid=${id}`,
        headers,
      });
      await deps.jobs.drain();
      return res;
    },
    setHostSettings: (name: string, json: string) =>
      t.db
        .update(hosts)
        .set({ settings: sql`${hosts.settings} || ${json}::jsonb` })
        .where(eq(hosts.name, name)),
  };
}

export const IMAGE = 'registry.gpu.local/pytorch:2.5.1-py3.12-cuda12.4';

/** The GPU indices an instance holds on its host, sorted. */
export const heldGpusOf = async (db: TestApp['db'], instanceId: number) =>
  (await db.select().from(hostGpus).where(eq(hostGpus.instanceId, instanceId))).map((g) => g.index).sort();

/**
 * A second host like `of` (same region, GPU model and settings; all its GPUs idle) with its own
 * SKU at `hourlyUnits` per GPU-hour: a place a clone may go to with a registry.
 */
export async function addTwinHost(db: TestApp['db'], of: string, name: string, hourlyUnits: number) {
  const [src] = await db.select().from(hosts).where(eq(hosts.name, of));
  if (!src) throw new Error(`no host ${of}`);
  const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = src;
  const [host] = await db
    .insert(hosts)
    .values({ ...rest, name, portRangeStart: 39_000, portRangeEnd: 39_199 })
    .returning();
  if (!host) throw new Error('host insert returned no row');
  const gpus = await db.select().from(hostGpus).where(eq(hostGpus.hostId, src.id));
  await db.insert(hostGpus).values(
    gpus.map((g) => ({
      hostId: host.id,
      index: g.index,
      uuid: `${g.uuid}-twin`,
      model: g.model,
      memoryGb: g.memoryGb,
    })),
  );
  const [sku] = await db.select().from(gpuSkus).where(eq(gpuSkus.hostId, src.id));
  if (!sku) throw new Error(`no SKU on ${of}`);
  const { id: _s, createdAt: _sc, updatedAt: _su, ...skuRest } = sku;
  await db.insert(gpuSkus).values({ ...skuRest, hostId: host.id, hourlyPrice: hourlyUnits });
  return host;
}
