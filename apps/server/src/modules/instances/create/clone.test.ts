import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { heldGpusOf, IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { hosts } from '../../hosts/hosts.tables.ts';
import { ledgerEntries } from '../../ledger/ledger.tables.ts';
import { instanceEvents, instances } from '../instances.tables.ts';
import { lookups, stoppedWithFiles } from '../stopped.test-helpers.ts';

const HOST = 'bj-a-a100-01';
const clock = fixedClock('2026-11-22T08:00:00Z');
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
});
afterAll(() => h.t.close());

const { row, container, volume } = lookups(() => h);
const volumeFiles = async (instanceId: number) => (await volume(instanceId))?.files;
const charges = async (userId: number) =>
  h.t.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'charge')));
const clone = async (
  headers: Record<string, string>,
  id: number,
  body: Record<string, unknown>,
  key?: string,
) => {
  const res = await h.t.app.inject({
    method: 'POST',
    url: `/api/gpu/instance/clone?instance_uuid=${id}`,
    headers: { ...headers, ...(key ? { 'idempotency-key': key } : {}) },
    payload: body,
  });
  await h.deps.jobs.drain();
  return res;
};
/** A powered-off pay-as-you-go instance with a file on its system disk and one in its data volume. */
const source = (yuan = 100_000) =>
  stoppedWithFiles(h, {
    host: HOST,
    name: 'clone-src',
    yuan,
    system: { '/opt/env.txt': 'conda env' },
    data: { '/dataset.txt': 'data' },
  });
const monthly = { instanceName: 'the-clone', gpuAmount: 2, billingType: 'monthly', duration: 1 };

describe('clone (克隆实例)', () => {
  it('bills the clone as a new instance and copies both disks; the source stays as it was', async () => {
    const { u, id, containerId } = await source();
    const before = await h.balance(u.user.id);
    const res = await clone(u.headers, id, monthly, 'clone-key-1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: '正在克隆实例',
      data: { status: 'CREATING', name: 'the-clone' },
    });
    const cloneId = res.json().data.id as number;
    expect(cloneId).not.toBe(id);

    const made = await row(cloneId);
    expect(made).toMatchObject({
      status: 'RUNNING',
      billingType: 'monthly',
      gpuCount: 2,
      skuId: (await row(id))?.skuId,
      hostId: (await row(id))?.hostId,
      image: IMAGE,
      transitionJob: { cloneOf: id },
    });
    expect(await heldGpusOf(h.t.db, cloneId)).toHaveLength(2);
    const copy = await container(made?.containerId as string);
    expect(copy).toMatchObject({ name: `gpu-inst-${cloneId}`, files: { '/opt/env.txt': 'conda env' } });
    expect(await volumeFiles(cloneId)).toEqual({ '/dataset.txt': 'data' });
    // Its own secrets: a new root password.
    expect(made?.rootPasswordEnc).not.toBe((await row(id))?.rootPasswordEnc);

    // Charged as a create of a monthly package on 2 GPUs: one charge, the package price.
    const charged = made?.charged as number;
    expect(charged).toBeGreaterThan(0);
    expect(await h.balance(u.user.id)).toBeCloseTo(before - charged / 10_000, 4);
    const mine = (await charges(u.user.id)).filter((c) => c.referenceId === String(cloneId));
    expect(mine.map((c) => c.amount)).toEqual([-charged]);
    // The same key again: the same clone, charged once.
    const again = await clone(u.headers, id, monthly, 'clone-key-1');
    expect(again.json().data.id).toBe(cloneId);
    expect((await charges(u.user.id)).filter((c) => c.referenceId === String(cloneId))).toHaveLength(1);

    // The source: STOPPED, same container, same files.
    expect(await row(id)).toMatchObject({ status: 'STOPPED', containerId });
    expect((await container(containerId))?.files).toEqual({ '/opt/env.txt': 'conda env' });
    const events = await h.t.db.select().from(instanceEvents).where(eq(instanceEvents.instanceId, cloneId));
    expect(events.map((e) => e.reason)[0]).toBe('克隆实例（源实例 clone-src）');
    expect(await h.view(u.headers, id)).toMatchObject({ cloneable: true, machineId: made?.skuId });

    // While a clone's copy is being made (CREATING), the source neither powers on nor is released.
    await h.t.db.update(instances).set({ status: 'CREATING' }).where(eq(instances.id, cloneId));
    try {
      for (const action of ['power_on', 'release'] as const) {
        const refused = await h.action(u.headers, action, id);
        expect(refused.statusCode).toBe(409);
        expect(refused.json().message).toMatch(
          /^实例正在被克隆（复制系统盘与数据盘），请等克隆完成后再(开机|释放)$/,
        );
      }
    } finally {
      await h.t.db.update(instances).set({ status: 'RUNNING' }).where(eq(instances.id, cloneId));
    }
    expect((await row(id))?.status).toBe('STOPPED');
    await h.action(u.headers, 'release', cloneId);
    await h.action(u.headers, 'release', id);
  });

  it('a failed clone charges nothing: FAILED, refunded in full, its GPUs free again', async () => {
    const { u, id } = await source();
    const before = await h.balance(u.user.id);
    await h.setHostSettings(HOST, '{"failureRate":1}');
    let res: Awaited<ReturnType<typeof clone>>;
    try {
      res = await clone(u.headers, id, monthly);
    } finally {
      await h.setHostSettings(HOST, '{"failureRate":0}');
    }
    expect(res.statusCode).toBe(200);
    const cloneId = res.json().data.id as number;
    const failed = await row(cloneId);
    expect(failed).toMatchObject({ status: 'FAILED', charged: 0 });
    expect(failed?.stopReason).toContain('费用已全额退回');
    expect(await h.balance(u.user.id)).toBe(before);
    expect(await heldGpusOf(h.t.db, cloneId)).toEqual([]);
    expect((await row(id))?.status).toBe('STOPPED');
    await h.action(u.headers, 'release', id);
  });

  it('refuses: not yours 404, running 409, too few free GPUs 409, a host that cannot clone 409, bad input 400', async () => {
    const { u, id } = await source();
    const other = await h.funded(500);
    const balance = await h.balance(u.user.id);
    expect((await clone(other.headers, id, monthly)).statusCode).toBe(404);
    expect((await clone(u.headers, 999_999, monthly)).statusCode).toBe(404);

    const bad = await clone(u.headers, id, { ...monthly, gpuAmount: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('GPU数量至少为1');
    const badName = await clone(u.headers, id, { ...monthly, instanceName: '-x-' });
    expect(badName.statusCode).toBe(400);

    // Eight more cannot fit a host of eight with one held by the source.
    const full = await clone(u.headers, id, { ...monthly, gpuAmount: 8 });
    expect(full.statusCode, full.body).toBe(409);
    expect(full.json().message).toMatch(/^该机器当前仅剩\d张空闲GPU，请减少GPU数量$/);

    await h.action(u.headers, 'power_on', id);
    const running = await clone(u.headers, id, monthly);
    expect(running.statusCode).toBe(409);
    expect(running.json().message).toBe('实例当前运行中，无法克隆：请先关机再克隆');
    await h.action(u.headers, 'power_off', id);

    const hostId = (await row(id))?.hostId as number;
    await h.t.db.update(hosts).set({ driver: 'vastai' }).where(eq(hosts.id, hostId));
    try {
      const refused = await clone(u.headers, id, monthly);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe('该实例所在的主机不支持克隆实例');
    } finally {
      await h.t.db.update(hosts).set({ driver: 'simulated' }).where(eq(hosts.id, hostId));
    }
    // Nothing was bought by any of these.
    const mine = await h.t.db.select().from(instances).where(eq(instances.userId, u.user.id));
    expect(mine.map((i) => i.id)).toEqual([id]);
    expect(await h.balance(u.user.id)).toBeLessThanOrEqual(balance);
    await h.action(u.headers, 'release', id);
  });
});
