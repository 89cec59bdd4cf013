import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../test/instances.ts';
import { signal } from '../../test/signal.ts';
import { hostGpus } from '../hosts/hosts.tables.ts';
import { instances } from '../instances/instances.tables.ts';
import { voucherFigures, voucherFiguresByScan } from './voucher-stats.repository.ts';
import { compactVoucherDayTotals } from './voucher-stats.task.ts';
import { voucherConfigs, vouchers } from './vouchers.tables.ts';

// Real lock contention needs real connections: PGlite runs one transaction at a time.
describe.runIf(process.env.DATABASE_URL)('one voucher under concurrent creates (PostgreSQL)', () => {
  let h: Awaited<ReturnType<typeof instanceTestApp>>;
  beforeAll(async () => {
    h = await instanceTestApp(systemClock);
    await h.t.db.update(hostGpus).set({ reservedReason: null });
  });
  afterAll(() => h.t.close());

  it('20 concurrent creates on several hosts using one voucher never take more than it held', async () => {
    const admin = await h.t.adminHeaders();
    const u = await h.funded(10_000);
    const machines = (await h.market()).filter((m) => m.gpuIdleNum > 0).slice(0, 5);
    expect(machines.length).toBeGreaterThan(1);
    // The voucher holds a little more than any one create can take (the dearest day), so
    // whichever takes first, a second still gets some, and less than all of them take: the
    // voucher runs out mid-race whatever the order.
    const dayPrices = await Promise.all(
      machines.map(async (m) => {
        const res = await h.t.app.inject({
          method: 'POST',
          url: '/api/v2/package-billing/calculate-price',
          payload: { machineId: m.id, billingType: 'daily', duration: 1, gpuAmount: 1 },
        });
        return res.json().data.payableAmount as number;
      }),
    );
    const faceAmount = Math.ceil(Math.max(...dayPrices)) + 1;
    // The ten package creates below take each machine's day twice.
    expect(faceAmount).toBeLessThan(2 * dayPrices.reduce((a, b) => a + b, 0));
    const cfg = await h.t.app.inject({
      method: 'POST',
      url: '/api/admin/vouchers/configs',
      headers: admin,
      payload: { name: '并发券', faceAmount, validDays: 7 },
    });
    const configId = cfg.json().data.id;
    await h.t.app.inject({
      method: 'POST',
      url: '/api/admin/voucher-distribution/execute',
      headers: admin,
      payload: {
        configId,
        requestId: 'pg-concurrency-1',
        target: { type: 'phones', phones: [u.user.phone] },
      },
    });
    const [voucher] = await h.t.db.select().from(vouchers).where(eq(vouchers.userId, u.user.id));
    if (!voucher) throw new Error('no voucher issued');

    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        h.t.app.inject({
          method: 'POST',
          url: '/api/gpu/instance/create',
          headers: u.headers,
          payload: {
            machineId: machines[i % machines.length]?.id,
            instanceName: `race-${i}`,
            image: IMAGE,
            gpuAmount: 1,
            voucherId: voucher.id,
            // Half pay up front (deducted now), half by the hour (held on the instance).
            ...(i % 2 ? { billingType: 'daily', duration: 1 } : { billingType: 'hourly' }),
          },
        }),
      ),
    );
    await h.deps.jobs.drain();
    expect(answers.filter((a) => a.statusCode >= 500).map((a) => a.body)).toEqual([]);
    const ok = answers.filter((a) => a.statusCode === 200);
    expect(ok.length).toBeGreaterThan(1);
    for (const a of answers.filter((x) => x.statusCode !== 200))
      expect(a.json().message).toMatch(/[\u4e00-\u9fa5]/);

    const [after] = await h.t.db.select().from(vouchers).where(eq(vouchers.id, voucher.id));
    const made = await h.t.db.select().from(instances).where(eq(instances.userId, u.user.id));
    const taken = made.reduce((n, i) => n + i.voucherHeld + i.voucherUsed, 0);
    expect(after?.remaining).toBeGreaterThanOrEqual(0);
    // Every unit the voucher lost sits on exactly one instance: never more than it held.
    expect(taken + (after?.remaining ?? 0)).toBe(voucher.amount);
    expect(taken).toBeLessThanOrEqual(voucher.amount);
    expect(taken).toBeGreaterThan(0);
    // It ran out: some creates were refused for it.
    expect(after?.remaining).toBe(0);
    expect(ok.length).toBeLessThan(answers.length);
    // The wallet's kept figures followed every concurrent take (and the releases' returns).
    const now = new Date();
    const week = new Date(now.getTime() + 7 * 86_400_000);
    expect(await voucherFigures(h.t.db, u.user.id, now, week)).toEqual(
      await voucherFiguresByScan(h.t.db, u.user.id, now, week),
    );
  });

  it('compacting while a transaction adds vouchers neither loses nor double-counts them', async () => {
    const u = await h.funded(1);
    const [cfg] = await h.t.db
      .insert(voucherConfigs)
      .values({ name: '压缩券', faceAmount: 100 })
      .returning({ id: voucherConfigs.id });
    const expiresAt = new Date(Date.now() + 3 * 86_400_000);
    const voucher = (code: string) => ({
      tenantId: u.user.tenantId,
      userId: u.user.id,
      configId: cfg?.id as number,
      code,
      name: '压缩券',
      amount: 100,
      remaining: 100,
      expiresAt,
    });
    await h.t.db.insert(vouchers).values([voucher('PGC-1'), voucher('PGC-2')]);
    // Two rows of one day: the compaction has work for this user.
    await h.t.db.execute(sql`update vouchers set remaining = 60 where code = 'PGC-1'`);
    const inserted = signal();
    const hold = signal();
    const adding = h.t.db.transaction(async (tx) => {
      await tx.insert(vouchers).values(voucher('PGC-3'));
      await tx.execute(sql`update vouchers set remaining = 10 where code = 'PGC-2'`);
      inserted.fire();
      await hold.fired;
    });
    await inserted.fired;
    // Commits while the other transaction's delta rows are written but not committed.
    expect(await compactVoucherDayTotals(h.t.db)).toBeGreaterThan(0);
    hold.fire();
    await adding;
    const now = new Date();
    const week = new Date(now.getTime() + 7 * 86_400_000);
    const figures = await voucherFigures(h.t.db, u.user.id, now, week);
    expect(figures).toEqual(await voucherFiguresByScan(h.t.db, u.user.id, now, week));
    expect(figures).toMatchObject({ unused: 3, totalValue: 170, expiring: 3 });
    await compactVoucherDayTotals(h.t.db);
    expect(await voucherFigures(h.t.db, u.user.id, now, week)).toEqual(figures);
  });
});
