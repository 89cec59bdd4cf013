import { ORIGINAL_GPUS_TAKEN_MESSAGE } from '@gpu/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { heldGpusOf, IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { hosts, simulatedContainers } from '../../hosts/hosts.tables.ts';
import { ledgerEntries } from '../../ledger/ledger.tables.ts';
import { postLedgerEntry } from '../../ledger/ledger.ts';
import { billingRecords, instances } from '../instances.tables.ts';
import { invariantProblems } from '../replicas.test-helpers.ts';
import { runMetering } from '../tasks/billing-tasks.ts';

// No-GPU mode (无卡模式开机, issue 30): power on without GPUs at the region's price.
const T0 = new Date('2026-11-26T09:00:00Z');
const clock = fixedClock(T0);
const HOST = 'bj-a-a100-01';
const HOUR = 3_600_000;
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
});
afterAll(() => h.t.close());

type Headers = Record<string, string>;
const make = async (headers: Headers, name: string, gpuAmount = 2, billingType = 'hourly') => {
  const res = await h.create(headers, {
    machineId: await h.idOf(HOST),
    instanceName: name,
    image: IMAGE,
    gpuAmount,
    billingType,
    ...(billingType === 'hourly' ? {} : { duration: 1 }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as number;
};
const powerOn = async (headers: Headers, id: number, query: string) => {
  const res = await h.t.app.inject({
    method: 'POST',
    url: `/api/gpu/instance/power_on?instance_uuid=${id}${query}`,
    headers,
  });
  await h.deps.jobs.drain();
  return res;
};
/** Headers with a token signed now: the clock moves hours, past an access token's life. */
const fresh = async (u: Awaited<ReturnType<typeof h.funded>>) => ({
  ...u.headers,
  authorization: `Bearer ${await h.t.userToken(u.user)}`,
});
const containerOf = async (containerId: string | null) =>
  (
    await h.t.db
      .select()
      .from(simulatedContainers)
      .where(eq(simulatedContainers.id, containerId as string))
  )[0];
const idleOnHost = async () => (await h.market()).find((m) => m.hostName === HOST)?.gpuIdleNum;
const charges = async (userId: number) =>
  h.t.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'charge')));
const billsOf = async (headers: Headers, kind: string) =>
  (
    await h.t.app.inject({ method: 'GET', url: `/api/v2/billing/records?kind=${kind}&size=100`, headers })
  ).json().data.list as { kind: string; amount: number; hourlyPrice: number | null; recordNo: string }[];

describe('no-GPU mode: refusals', () => {
  it('answers 400 in Chinese for a bad mode, 409 unless powered off, 422 for packages; nothing changes', async () => {
    const owner = await h.funded(2_000);
    const id = await make(owner.headers, 'refusals', 1);
    const bad = await powerOn(owner.headers, id, '&mode=cpu');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/mode.*无卡模式/);
    const running = await powerOn(owner.headers, id, '&mode=nogpu');
    expect(running.statusCode).toBe(409);
    expect(running.json().message).toBe('实例当前运行中，无法无卡模式开机');

    const pkg = await make(owner.headers, 'package', 1, 'daily');
    await h.action(owner.headers, 'power_off', pkg);
    const held = await heldGpusOf(h.t.db, pkg);
    const refused = await powerOn(owner.headers, pkg, '&mode=nogpu');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toMatch(/仅适用于按量计费实例/);
    const view = await h.view(owner.headers, pkg);
    expect(view).toMatchObject({ status: 'STOPPED', noGpu: false, noGpuPrice: null });
    expect(await heldGpusOf(h.t.db, pkg)).toEqual(held);
    // The demo host has 3 idle GPUs: what a test rents, it gives back.
    await h.action(owner.headers, 'release', id);
    await h.action(owner.headers, 'release', pkg);
  });

  it('needs an hour of the no-GPU price available', async () => {
    const owner = await h.funded(100);
    const id = await make(owner.headers, 'poor', 1);
    await h.action(owner.headers, 'power_off', id);
    // Spend all but 0.05 yuan: less than an hour of ¥0.10.
    const left = await h.balance(owner.user.id);
    await h.t.db.transaction((tx) =>
      postLedgerEntry(tx, {
        userId: owner.user.id,
        kind: 'adjustment',
        amount: -Math.round((left - 0.05) * 10_000),
        idempotencyKey: `test:poor:${id}`,
      }),
    );
    const res = await powerOn(owner.headers, id, '&mode=nogpu');
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('余额不足：按量计费需至少可支付1小时费用（0.10元），请先充值');
    expect((await h.view(owner.headers, id)).status).toBe('STOPPED');
    await h.action(owner.headers, 'release', id);
  });
});

describe('no-GPU mode: a run', () => {
  it('starts without GPUs (container recreated, disk kept), bills ¥0.10/h as 无卡模式 once, then takes its GPUs back', async () => {
    clock.set(T0);
    const owner = await h.funded(100);
    const id = await make(owner.headers, 'nogpu-run');
    const before = await h.view(owner.headers, id);
    expect(before.noGpuPrice).toBe(0.1);
    const gpus = await heldGpusOf(h.t.db, id);
    expect(gpus).toHaveLength(2);
    await h.t.db
      .update(simulatedContainers)
      .set({ files: { '/root/env.txt': 'conda' } })
      .where(eq(simulatedContainers.id, before.containerId as string));
    await h.action(owner.headers, 'power_off', id);
    const idleOff = await idleOnHost();

    const started = await h.t.app.inject({
      method: 'POST',
      url: `/api/gpu/instance/power_on?instance_uuid=${id}&mode=nogpu`,
      headers: owner.headers,
    });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().data).toMatchObject({ status: 'STARTING', noGpu: true });
    await h.deps.jobs.drain();
    const on = await h.view(owner.headers, id);
    expect(on).toMatchObject({ status: 'RUNNING', noGpu: true, noGpuPrice: 0.1 });
    // No GPU held: they stay on the market; the container was recreated without any.
    expect(await heldGpusOf(h.t.db, id)).toEqual([]);
    expect(await idleOnHost()).toBe(idleOff);
    expect(on.containerId).not.toBe(before.containerId);
    const container = await containerOf(on.containerId);
    expect(container?.gpuIndices).toEqual([]);
    // A fixed small share instead of the SKU's per-GPU CPU and memory.
    expect(container).toMatchObject({ cpus: 1, memoryGb: 2 });
    expect(container?.files).toMatchObject({ '/root/env.txt': 'conda' });
    expect(await invariantProblems(h.t.db)).toEqual([]);

    // 90 minutes at ¥0.10/h = ¥0.15, posted once however often metering runs.
    const chargedBefore = (await charges(owner.user.id)).length;
    clock.set(new Date(T0.getTime() + 1.5 * HOUR));
    await runMetering(h.deps);
    await runMetering(h.deps);
    const posted = (await charges(owner.user.id)).slice(chargedBefore);
    expect(posted.reduce((n, e) => n - e.amount, 0)).toBe(1_500);
    expect(posted.every((e) => e.memo?.startsWith('无卡模式'))).toBe(true);
    const headers = await fresh(owner);
    const lines = await billsOf(headers, 'nogpu');
    expect(lines.map((l) => l.amount).reduce((a, b) => a + b, 0)).toBeCloseTo(0.15, 6);
    expect(
      lines.every((l) => l.kind === 'nogpu' && l.hourlyPrice === 0.1 && l.recordNo.startsWith('BL')),
    ).toBe(true);

    // The export names the kind and the rate too.
    const csv = await h.t.app.inject({
      method: 'GET',
      url: '/api/v2/billing/export?format=csv&kind=nogpu',
      headers,
    });
    const [, first] = csv.body.split('\r\n');
    expect(first?.split(',')[3]).toBe('无卡模式');
    expect(first?.split(',').at(-1)).toBe('0.10');

    // Power off: charged up to then, the mode ends.
    clock.set(new Date(T0.getTime() + 2 * HOUR));
    expect((await h.action(headers, 'power_off', id)).statusCode).toBe(200);
    expect(await h.view(headers, id)).toMatchObject({ status: 'STOPPED', noGpu: false });
    const [row] = await h.t.db.select().from(instances).where(eq(instances.id, id));
    expect(row?.noGpuRate).toBeNull();
    expect(row?.charged).toBe(2_000);

    // A normal power on takes its own GPUs again, the container recreated on them; GPU price again.
    expect((await h.action(headers, 'power_on', id)).statusCode).toBe(200);
    const back = await h.view(headers, id);
    expect(back).toMatchObject({ status: 'RUNNING', noGpu: false });
    expect(await heldGpusOf(h.t.db, id)).toEqual(gpus);
    expect((await containerOf(back.containerId))?.gpuIndices).toEqual(gpus);
    expect((await containerOf(back.containerId))?.files).toMatchObject({ '/root/env.txt': 'conda' });
    clock.set(new Date(T0.getTime() + 2.5 * HOUR));
    await runMetering(h.deps);
    const [after] = await h.t.db.select().from(instances).where(eq(instances.id, id));
    const rate = after?.hourlyRate ?? 0;
    expect((after?.charged ?? 0) - 2_000).toBe(Math.floor(rate / 2 / 100) * 100);
    const metering = await billsOf(headers, 'metering');
    expect(metering.some((l) => l.hourlyPrice === rate / 10_000)).toBe(true);
    // The no-GPU lines are untouched by the GPU period of the same hours.
    expect((await billsOf(headers, 'nogpu')).map((l) => l.amount).reduce((a, b) => a + b, 0)).toBeCloseTo(
      0.2,
      6,
    );
    expect(await invariantProblems(h.t.db)).toEqual([]);
    await h.action(headers, 'release', id);
  });

  it('its GPUs taken while it ran without them: a normal power on answers 409 offering others', async () => {
    clock.set(new Date(T0.getTime() + 3 * HOUR));
    const owner = await h.funded(100);
    const id = await make(owner.headers, 'nogpu-lost', 1);
    const [gpu] = await heldGpusOf(h.t.db, id);
    await h.action(owner.headers, 'power_off', id);
    expect((await powerOn(owner.headers, id, '&mode=nogpu')).statusCode).toBe(200);
    const other = await h.funded(100);
    const taker = await make(other.headers, 'taker', 1);
    expect(await heldGpusOf(h.t.db, taker)).toEqual([gpu]);
    await h.action(owner.headers, 'power_off', id);
    const refused = await h.action(owner.headers, 'power_on', id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(ORIGINAL_GPUS_TAKEN_MESSAGE);
    const moved = await powerOn(owner.headers, id, '&gpus=any');
    expect(moved.statusCode).toBe(200);
    const [now] = await heldGpusOf(h.t.db, id);
    expect(now).not.toBe(gpu);
    expect(await invariantProblems(h.t.db)).toEqual([]);
    await h.action(owner.headers, 'release', id);
    await h.action(other.headers, 'release', taker);
  });

  it('a host whose driver cannot recreate offers no no-GPU mode', async () => {
    const owner = await h.funded(100);
    const id = await make(owner.headers, 'no-recreate', 1);
    await h.action(owner.headers, 'power_off', id);
    // As if the host were rented from a provider (vast.ai): nothing to recreate there.
    await h.t.db.update(hosts).set({ driver: 'vastai' }).where(eq(hosts.name, HOST));
    try {
      const res = await powerOn(owner.headers, id, '&mode=nogpu');
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe('该实例所在的主机不支持无卡模式开机');
      expect((await h.view(owner.headers, id)).noGpuPrice).toBeNull();
    } finally {
      await h.t.db.update(hosts).set({ driver: 'simulated' }).where(eq(hosts.name, HOST));
    }
    const lines = await h.t.db.select().from(billingRecords).where(eq(billingRecords.instanceId, id));
    expect(lines.every((l) => l.kind !== 'nogpu')).toBe(true);
  });
});
