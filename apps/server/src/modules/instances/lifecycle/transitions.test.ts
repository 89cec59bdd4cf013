import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { hostGpus, simulatedContainers } from '../../hosts/hosts.tables.ts';
import { ledgerEntries } from '../../ledger/ledger.tables.ts';
import { userNotices } from '../../notices/notices.tables.ts';
import { createInstancesRepository } from '../instances.repository.ts';
import { instanceEvents, instances } from '../instances.tables.ts';
import { runInstanceJob, runJobSweep } from '../jobs/jobs.usecases.ts';
import { powerOff, release } from './lifecycle.usecases.ts';
import { driveTransition } from './transitions.usecases.ts';

/**
 * Power off, power on and release as jobs: the request answers the transitional state while the
 * driver still works, the job finishes it, and a crash mid-transition is resumed exactly once.
 */
const T0 = new Date('2026-11-22T08:00:00Z');
const MIN = 60_000;
const clock = fixedClock(T0);
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
});
afterAll(() => h.t.close());

const HOST = 'nm-a-l40s-01'; // L40S: 3.98 yuan/GPU/hour
const row = async (id: number) => (await h.t.db.select().from(instances).where(eq(instances.id, id)))[0];
const heldGpus = (id: number) => h.t.db.$count(hostGpus, eq(hostGpus.instanceId, id));
const containerState = async (id: number) => {
  const r = await row(id);
  const [c] = await h.t.db
    .select()
    .from(simulatedContainers)
    .where(eq(simulatedContainers.id, r?.containerId as string));
  return c?.state ?? 'gone';
};
const charges = async (id: number) =>
  h.t.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.referenceType, 'instance'), eq(ledgerEntries.referenceId, String(id))));
/** A job-less copy of the deps: what a crash right after the request's commit leaves. */
const crashed = () => ({ ...h.deps, jobs: { kick: () => undefined } });
const post = (headers: Record<string, string>, name: string, id: number) =>
  h.t.app.inject({ method: 'POST', url: `/api/gpu/instance/${name}?instance_uuid=${id}`, headers });

async function hourly(name: string) {
  clock.set(T0);
  const u = await h.funded(100);
  const res = await h.create(u.headers, {
    machineId: await h.idOf(HOST),
    instanceName: name,
    image: IMAGE,
    gpuAmount: 1,
    billingType: 'hourly',
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().data.id as number;
  expect((await row(id))?.status).toBe('RUNNING');
  return { u, id };
}

describe('power actions as jobs', () => {
  it('a slow host does not hold the answer: STOPPING while the driver still works, then the job stops it', async () => {
    const { u, id } = await hourly('slow');
    clock.set(new Date(T0.getTime() + 30 * MIN));
    await h.setHostSettings(HOST, '{"latencyMs":1500}');
    try {
      const off = await post(u.headers, 'power_off', id);
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json().data.status).toBe('STOPPING');
      // Answered, and the driver has not stopped the container yet: its call is still running.
      expect(await containerState(id)).toBe('running');
      expect((await row(id))?.status).toBe('STOPPING');
      expect(await heldGpus(id)).toBe(1);
      await h.deps.jobs.drain();
      expect(await containerState(id)).toBe('exited');
      expect(await row(id)).toMatchObject({ status: 'STOPPED', claimedUntil: null, transitionJob: null });
      expect(await heldGpus(id)).toBe(0);
      expect((await h.view(u.headers, id)).charged).toBe(1.99);

      const on = await post(u.headers, 'power_on', id);
      expect(on.json().data.status).toBe('STARTING');
      expect(await containerState(id)).toBe('exited');
      // The GPUs are taken back by the request (the market must not sell them meanwhile).
      expect(await heldGpus(id)).toBe(1);
      await h.deps.jobs.drain();
      expect(await containerState(id)).toBe('running');
      expect((await row(id))?.status).toBe('RUNNING');

      const rel = await post(u.headers, 'release', id);
      expect(rel.json().data.status).toBe('RELEASING');
      expect(await containerState(id)).toBe('running');
      await h.deps.jobs.drain();
      expect(await containerState(id)).toBe('gone');
      expect((await row(id))?.status).toBe('RELEASED');
      expect(await heldGpus(id)).toBe(0);
    } finally {
      await h.setHostSettings(HOST, '{"latencyMs":0}');
    }
  });

  it("an admin's power off answers STOPPING; the owner is told only once the job has done it", async () => {
    const { u, id } = await hourly('admin-slow');
    const adminHeaders = await h.t.adminHeaders();
    await h.setHostSettings(HOST, '{"latencyMs":1500}');
    try {
      const off = await h.t.app.inject({
        method: 'POST',
        url: `/api/admin/user-management/instances/${id}/power-off`,
        headers: adminHeaders,
        payload: { reason: '维护主机' },
      });
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json().data.status).toBe('STOPPING');
      expect(await h.t.db.$count(userNotices, eq(userNotices.instanceId, id))).toBe(0);
      await h.deps.jobs.drain();
      expect((await row(id))?.status).toBe('STOPPED');
      const notices = await h.t.db.select().from(userNotices).where(eq(userNotices.instanceId, id));
      expect(notices.map((n) => [n.userId, n.title])).toEqual([[u.user.id, '实例已被管理员关机']]);
    } finally {
      await h.setHostSettings(HOST, '{"latencyMs":0}');
    }
  });

  it('a failed driver call takes the instance back to where it was, and it keeps accruing', async () => {
    const { u, id } = await hourly('fails');
    await h.setHostSettings(HOST, '{"unreachable":true}');
    try {
      const off = await h.action(u.headers, 'power_off', id);
      expect(off.json().data.status).toBe('STOPPING');
      expect(await row(id)).toMatchObject({ status: 'RUNNING', transitionAt: null, claimedUntil: null });
      expect(await heldGpus(id)).toBe(1);
      const rel = await h.action(u.headers, 'release', id);
      expect(rel.json().data.status).toBe('RELEASING');
      expect((await row(id))?.status).toBe('RUNNING');
      const reasons = (
        await h.t.db.select().from(instanceEvents).where(eq(instanceEvents.instanceId, id))
      ).map((e) => e.reason);
      expect(reasons.some((r) => r?.startsWith('关机失败'))).toBe(true);
      expect(reasons.some((r) => r?.startsWith('释放失败'))).toBe(true);
    } finally {
      await h.setHostSettings(HOST, '{"unreachable":false}');
    }
    await h.action(u.headers, 'release', id);
    expect((await row(id))?.status).toBe('RELEASED');
  });

  it('a crash mid power off (its lease expired) is resumed by the sweep exactly once', async () => {
    const { u, id } = await hourly('crash-off');
    clock.set(new Date(T0.getTime() + 60 * MIN));
    // The request committed STOPPING; its worker claimed the job and died in the driver call.
    await powerOff(crashed(), id, { kind: 'user', id: u.user.id }, 'user');
    const repo = createInstancesRepository(h.deps);
    const lease = new Date(clock.now().getTime() + h.deps.provisionLeaseMs);
    const stale = await repo.claim(id, clock.now(), lease);
    expect(stale?.status).toBe('STOPPING');
    // While the lease lives nobody else touches it.
    expect((await runJobSweep(h.deps)).outcomes.filter((o) => o.id === id)).toEqual([]);
    expect((await row(id))?.status).toBe('STOPPING');
    // Expired: two sweeps at once, one of them drives it.
    clock.set(new Date(lease.getTime() + 1000));
    const [a, b] = await Promise.all([runJobSweep(h.deps), runJobSweep(h.deps)]);
    const mine = [...a.outcomes, ...b.outcomes].filter((o) => o.id === id);
    expect(mine).toEqual([{ id, to: 'STOPPED' }]);
    expect(await containerState(id)).toBe('exited');
    expect(await heldGpus(id)).toBe(0);
    const charged = (await row(id))?.charged;
    expect(charged).toBeGreaterThan(0);
    const entries = (await charges(id)).length;
    // The dead worker wakes up and finishes what it had: nothing changes, nothing is charged again.
    clock.set(new Date(lease.getTime() + 5 * MIN));
    expect((await driveTransition(h.deps, stale as never)).row.status).toBe('STOPPED');
    expect(await runInstanceJob(h.deps, id)).toBeNull();
    expect((await row(id))?.charged).toBe(charged);
    expect((await charges(id)).length).toBe(entries);
    expect(await heldGpus(id)).toBe(0);
    expect(await h.balance(u.user.id)).toBe(100 - (charged as number) / 10_000);
    await h.action(u.headers, 'release', id);
  });

  it('a crash mid release (container already removed) is resumed once: GPUs freed once, settled once', async () => {
    const { u, id } = await hourly('crash-rel');
    clock.set(new Date(T0.getTime() + 30 * MIN));
    await release(crashed(), id, { kind: 'user', id: u.user.id });
    const stale = await createInstancesRepository(h.deps).claim(
      id,
      clock.now(),
      new Date(clock.now().getTime() + h.deps.provisionLeaseMs),
    );
    // The dead worker's driver call did remove the container before the crash.
    const r = await row(id);
    await h.t.db.delete(simulatedContainers).where(eq(simulatedContainers.id, r?.containerId as string));
    expect(await heldGpus(id)).toBe(1);
    clock.set(new Date(T0.getTime() + 30 * MIN + h.deps.provisionLeaseMs + 1000));
    const takers = await Promise.all([runInstanceJob(h.deps, id), runInstanceJob(h.deps, id)]);
    expect(takers.sort()).toEqual(['RELEASED', null].sort());
    expect(await row(id)).toMatchObject({ status: 'RELEASED', claimedUntil: null, transitionJob: null });
    expect(await heldGpus(id)).toBe(0);
    const after = { charged: (await row(id))?.charged, entries: (await charges(id)).length };
    expect((await driveTransition(h.deps, stale as never)).row.status).toBe('RELEASED');
    expect((await runJobSweep(h.deps)).outcomes.filter((o) => o.id === id)).toEqual([]);
    expect({ charged: (await row(id))?.charged, entries: (await charges(id)).length }).toEqual(after);
    // Charged once, up to when the release was finished.
    expect(after.charged).toBeGreaterThan(0);
    expect(await h.balance(u.user.id)).toBe(100 - (after.charged as number) / 10_000);
  });
});
