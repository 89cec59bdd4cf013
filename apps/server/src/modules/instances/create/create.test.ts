import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { heldGpusOf, IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { hostPorts, hosts } from '../../hosts/hosts.tables.ts';
import { ledgerEntries } from '../../ledger/ledger.tables.ts';
import { instances } from '../instances.tables.ts';
import { runReconcile } from '../tasks/reconcile.ts';

const clock = fixedClock('2026-11-22T08:00:00Z');
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
});
afterAll(() => h.t.close());

const heldGpus = (instanceId: number) => heldGpusOf(h.t.db, instanceId);

describe('create', () => {
  it("takes its ports from the range when the host's port pool was never filled", async () => {
    const u = await h.funded(100);
    const name = 'gd-b-h100-01';
    const [host] = await h.t.db.select().from(hosts).where(eq(hosts.name, name));
    await h.t.db
      .delete(hostPorts)
      .where(and(eq(hostPorts.hostId, host?.id as number), isNull(hostPorts.instanceId)));
    const res = await h.create(u.headers, {
      machineId: await h.idOf(name),
      instanceName: 'fresh-pool',
      image: IMAGE,
      gpuAmount: 2,
      billingType: 'hourly',
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id as number;
    const [row] = await h.t.db.select().from(instances).where(eq(instances.id, id));
    const held = (await h.t.db.select().from(hostPorts).where(eq(hostPorts.instanceId, id)))
      .map((p) => p.port)
      .sort((a, b) => a - b);
    expect(held).toHaveLength(2);
    expect([row?.sshPort, row?.jupyterPort]).toEqual(held);
    for (const port of held) {
      expect(port).toBeGreaterThanOrEqual(host?.portRangeStart as number);
      expect(port).toBeLessThanOrEqual(host?.portRangeEnd as number);
    }
    expect(row?.gpuIndices).toHaveLength(2);
    expect(await heldGpus(id)).toEqual([...(row?.gpuIndices ?? [])].sort());
    await h.action(u.headers, 'release', id);
  });

  it('pay-as-you-go: needs an hour available, runs, holds GPUs and ports, charges nothing up front', async () => {
    const u = await h.funded(100);
    const machineId = await h.idOf('nm-a-l40s-01');
    const res = await h.create(u.headers, {
      machineId,
      instanceName: 'train-1',
      image: IMAGE,
      gpuAmount: 2,
      billingType: 'hourly',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('容器创建成功，计费已开始！');
    // Answered once committed: the container is the provisioning job's, after the answer.
    expect(res.json().data).toMatchObject({
      status: 'CREATING',
      containerId: null,
      sshCommand: null,
      jupyterToken: null,
    });
    const inst = await h.view(u.headers, res.json().data.id);
    expect(inst).toMatchObject({
      status: 'RUNNING',
      gpuCount: 2,
      hourlyPrice: 7.96,
      billingType: 'hourly',
      expiresAt: null,
      charged: 0,
    });
    expect(inst.sshCommand).toMatch(/^ssh -p \d+ root@/);
    expect(inst.sshPassword).toHaveLength(16);
    expect(inst.jupyterUrl).toMatch(/^http:\/\/.+:\d+\/lab$/);
    // JupyterLab's token is its own: knowing it (a shared notebook URL) does not open SSH.
    expect(inst.jupyterToken).toMatch(/^[0-9a-f]{48}$/);
    expect(inst.jupyterToken).not.toBe(inst.sshPassword);
    expect(await heldGpus(inst.id)).toEqual([0, 1]);
    expect(await h.balance(u.user.id)).toBe(100);
    expect((await h.market()).find((i) => i.hostName === 'nm-a-l40s-01')?.gpuIdleNum).toBe(6);
  });

  it.each([
    ['daily', 2, 150 * 0.9 * 2],
    ['weekly', 1, 900 * 0.9],
    ['monthly', 1, 3300 * 0.9],
  ])(
    '%s package: price × duration after discount, charged at create, expiry from RUNNING',
    async (billingType, duration, cost) => {
      const u = await h.funded(5000);
      const machineId = await h.idOf('bj-a-a100-01');
      const res = await h.create(u.headers, {
        machineId,
        instanceName: `pkg-${billingType}`,
        image: IMAGE,
        gpuAmount: 1,
        billingType,
        duration,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.status).toBe('CREATING');
      expect(res.json().data.charged).toBeCloseTo(cost, 4);
      const inst = await h.view(u.headers, res.json().data.id);
      expect(inst.status).toBe('RUNNING');
      expect(inst.charged).toBeCloseTo(cost, 4);
      const days = { daily: 1, weekly: 7, monthly: 30 }[billingType as 'daily'] * duration;
      expect(new Date(inst.expiresAt as string).getTime()).toBe(clock.now().getTime() + days * 86_400_000);
      expect(await h.balance(u.user.id)).toBeCloseTo(5000 - cost, 4);
      // Release to keep GPUs for the other cases.
      expect((await h.action(u.headers, 'release', inst.id)).statusCode).toBe(200);
    },
  );

  it('ignores prices and discounts sent by the client', async () => {
    const u = await h.funded(1000);
    const machineId = await h.idOf('bj-a-a100-01');
    const res = await h.create(u.headers, {
      machineId,
      instanceName: 'tamper',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'daily',
      duration: 1,
      voucherDiscount: 999,
      price: 0.01,
      totalGpu: 8,
    });
    expect(res.json().data.charged).toBe(135);
    expect(await h.balance(u.user.id)).toBe(865);
    await h.action(u.headers, 'release', res.json().data.id);
  });

  it.each([
    [{ instanceName: '-bad' }, 400, '实例名称只能包含'],
    [{ instanceName: '' }, 400, '请输入实例名称'],
    [{ image: 'registry.gpu.local/nope:1' }, 422, '镜像'],
    [{ image: 'registry.gpu.local/pytorch:2.1.0-py3.9-cann8.0.RC2' }, 422, '镜像'],
    [{ gpuAmount: 9 }, 400, 'GPU数量最多为8'],
    [{ billingType: 'daily', duration: 7 }, 400, '时长须为1-6天'],
    [{ voucherId: 3 }, 404, '代金券不存在'],
    [{ machineId: 999999 }, 404, '未找到指定的GPU资源'],
  ])('refuses %o', async (patch, status, message) => {
    const u = await h.funded(1000);
    const res = await h.create(u.headers, {
      machineId: await h.idOf('nm-a-l40s-01'),
      instanceName: 'x',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'hourly',
      ...patch,
    });
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().message).toContain(message);
  });

  it('refuses more GPUs than idle and too little balance, changing nothing', async () => {
    const poor = await h.funded(1);
    const machineId = await h.idOf('gd-b-h100-01');
    const tooMany = await h.create(poor.headers, {
      machineId,
      instanceName: 'x',
      image: IMAGE,
      gpuAmount: 3,
      billingType: 'hourly',
    });
    expect(tooMany.statusCode).toBe(422);
    const hourly = await h.create(poor.headers, {
      machineId,
      instanceName: 'x',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'hourly',
    });
    expect(hourly.statusCode).toBe(422);
    expect(hourly.json().message).toContain('15.80');
    const pkg = await h.create(poor.headers, {
      machineId,
      instanceName: 'x',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'daily',
      duration: 1,
    });
    expect(pkg.statusCode).toBe(422);
    expect(await h.t.db.$count(instances, eq(instances.userId, poor.user.id))).toBe(0);
    expect(await h.balance(poor.user.id)).toBe(1);
  });

  it("a tenant that shows some regions buys only its own market's machines; others are not found", async () => {
    const u = await h.funded(100, '127.0.0.1');
    const shown = (
      await h.t.app.inject({ method: 'GET', url: '/api/gpu/market?size=48', headers: u.headers })
    ).json().data.list as { id: number }[];
    const hidden = (await h.market()).filter((m) => !shown.some((s) => s.id === m.id));
    expect(shown.length).toBeGreaterThan(0);
    expect(hidden.length).toBeGreaterThan(0);
    const before = await h.balance(u.user.id);
    const refused = await h.create(u.headers, {
      machineId: hidden[0]?.id,
      instanceName: 'elsewhere',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'daily',
      duration: 1,
    });
    expect(refused.statusCode, refused.body).toBe(404);
    expect(await h.balance(u.user.id)).toEqual(before);
    let made: number | undefined;
    for (const m of shown) {
      const res = await h.create(u.headers, {
        machineId: m.id,
        instanceName: 'here',
        image: IMAGE,
        gpuAmount: 1,
        billingType: 'daily',
        duration: 1,
      });
      if (res.statusCode === 422) continue; // an image not made for that GPU brand
      expect(res.statusCode, res.body).toBe(200);
      made = res.json().data.id as number;
      break;
    }
    expect(made).toBeDefined();
    expect(await h.balance(u.user.id)).toBeLessThan(before);
    await h.action(u.headers, 'release', made as number);
  });

  it('driver failure: FAILED, GPUs and ports returned, every charge refunded', async () => {
    const u = await h.funded(2000);
    await h.setHostSettings('bj-a-a100-01', '{"unreachable":true}');
    const res = await h.create(u.headers, {
      machineId: await h.idOf('bj-a-a100-01'),
      instanceName: 'doomed',
      image: IMAGE,
      gpuAmount: 2,
      billingType: 'daily',
      duration: 1,
    });
    await h.setHostSettings('bj-a-a100-01', '{"unreachable":false}');
    // Accepted and charged; the provisioning job then met the dead host.
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toBe('CREATING');
    const [inst] = await h.t.db.select().from(instances).where(eq(instances.userId, u.user.id));
    expect(inst?.status).toBe('FAILED');
    expect(inst?.claimedUntil).toBeNull();
    expect((await h.view(u.headers, inst?.id as number)).stopReason).toContain('创建失败');
    // The host could not confirm that no container was made: the GPUs stay held until it can.
    expect(await heldGpus(inst?.id as number)).toHaveLength(2);
    const rec = await runReconcile(h.deps);
    expect(rec.freed).toEqual([inst?.id]);
    expect(await heldGpus(inst?.id as number)).toEqual([]);
    expect(await h.t.db.$count(hostPorts, eq(hostPorts.instanceId, inst?.id as number))).toBe(0);
    expect(await h.balance(u.user.id)).toBe(2000);
    const entries = await h.t.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, u.user.id));
    expect(entries.map((e) => e.kind)).toEqual(['recharge', 'charge', 'refund']);
  });
});
