import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { heldGpusOf, IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { hostGpus, hosts } from '../../hosts/hosts.tables.ts';
import { instanceEvents, instances } from '../instances.tables.ts';

const clock = fixedClock('2026-11-22T08:00:00Z');
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
});
afterAll(() => h.t.close());

const heldGpus = (instanceId: number) => heldGpusOf(h.t.db, instanceId);

describe('power and release', () => {
  it('pay-as-you-go power off frees GPUs and stops accrual; power on takes the same GPUs again', async () => {
    const u = await h.funded(100);
    const res = await h.create(u.headers, {
      machineId: await h.idOf('nm-a-l40s-01'),
      instanceName: 'cycle',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'hourly',
    });
    const id = res.json().data.id;
    const gpus = await heldGpus(id);
    clock.advance(30 * 60_000);
    // Each answer is the transitional state; the job (drained by `action`) finishes it.
    const off = await h.action(u.headers, 'power_off', id);
    expect(off.json().data.status).toBe('STOPPING');
    expect(await h.view(u.headers, id)).toMatchObject({ status: 'STOPPED', charged: 1.99, sshCommand: null });
    expect(await heldGpus(id)).toEqual([]);
    clock.advance(60 * 60_000);
    const on = await h.action(u.headers, 'power_on', id);
    expect(on.json().data.status).toBe('STARTING');
    expect((await h.view(u.headers, id)).status).toBe('RUNNING');
    expect(await heldGpus(id)).toEqual(gpus);
    const rel = await h.action(u.headers, 'release', id);
    expect(rel.json().data.status).toBe('RELEASING');
    expect(await h.view(u.headers, id)).toMatchObject({ status: 'RELEASED', charged: 1.99 });
    expect(await h.balance(u.user.id)).toBe(100 - 1.99);
    const again = await h.action(u.headers, 'power_on', id);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('实例当前已释放，无法开机');
  });

  it('packages keep their GPUs while powered off', async () => {
    const u = await h.funded(1000);
    const res = await h.create(u.headers, {
      machineId: await h.idOf('nm-a-l40s-01'),
      instanceName: 'keep',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'daily',
      duration: 1,
    });
    const id = res.json().data.id;
    const gpus = await heldGpus(id);
    await h.action(u.headers, 'power_off', id);
    expect(await heldGpus(id)).toEqual(gpus);
    await h.action(u.headers, 'release', id);
    expect(await heldGpus(id)).toEqual([]);
  });

  it('power on says so when the GPUs are taken meanwhile', async () => {
    const u = await h.funded(100);
    const id = (
      await h.create(u.headers, {
        machineId: await h.idOf('gd-b-h100-01'),
        instanceName: 'h',
        image: IMAGE,
        gpuAmount: 2,
        billingType: 'hourly',
      })
    ).json().data.id;
    await h.action(u.headers, 'power_off', id);
    const other = await h.funded(100);
    const taker = await h.create(other.headers, {
      machineId: await h.idOf('gd-b-h100-01'),
      instanceName: 'taker',
      image: IMAGE,
      gpuAmount: 2,
      billingType: 'hourly',
    });
    expect(taker.statusCode).toBe(200);
    const on = await h.action(u.headers, 'power_on', id);
    expect(on.statusCode).toBe(409);
    expect(on.json().message).toContain('GPU');
    expect((await h.t.db.select().from(instances).where(eq(instances.id, id)))[0]?.status).toBe('STOPPED');
    await h.action(other.headers, 'release', taker.json().data.id);
    await h.action(u.headers, 'release', id);
  });

  it("answers 404 for another user's or tenant's instance and lists only one's own", async () => {
    const a = await h.funded(100);
    const b = await h.funded(100);
    const id = (
      await h.create(a.headers, {
        machineId: await h.idOf('nm-a-l40s-01'),
        instanceName: 'mine',
        image: IMAGE,
        gpuAmount: 1,
        billingType: 'hourly',
      })
    ).json().data.id;
    for (const name of ['power_off', 'power_on', 'release'] as const) {
      expect((await h.action(b.headers, name, id)).statusCode).toBe(404);
    }
    const list = await h.t.app.inject({ method: 'GET', url: '/api/gpu/instances', headers: b.headers });
    expect(list.json().data.total).toBe(0);
    const mine = await h.t.app.inject({ method: 'GET', url: '/api/gpu/instances', headers: a.headers });
    expect(mine.json().data.list.map((i: { id: number }) => i.id)).toEqual([id]);
    expect((await h.t.app.inject({ method: 'GET', url: '/api/gpu/instances' })).statusCode).toBe(401);
    await h.action(a.headers, 'release', id);
  });
});

describe('bookkeeping', () => {
  it('records every transition', async () => {
    const rows = await h.t.db.select().from(instances).where(isNotNull(instances.releasedAt));
    const events = await h.t.db
      .select()
      .from(instanceEvents)
      .where(eq(instanceEvents.instanceId, rows[0]?.id as number))
      .orderBy(instanceEvents.id);
    expect(events.map((e) => e.toStatus)[0]).toBe('CREATING');
    expect(events.map((e) => e.toStatus).at(-1)).toBe('RELEASED');
  });
  it('leaves no GPU held by a released or failed instance', async () => {
    const leaked = await h.t.db
      .select()
      .from(hostGpus)
      .innerJoin(instances, eq(instances.id, hostGpus.instanceId))
      .where(and(isNotNull(hostGpus.instanceId)));
    expect(leaked.filter((r) => ['RELEASED', 'FAILED'].includes(r.instances.status))).toEqual([]);
    expect(await h.t.db.$count(hosts)).toBeGreaterThan(0);
  });
});
