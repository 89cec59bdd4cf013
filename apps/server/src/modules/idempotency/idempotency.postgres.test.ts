import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../test/instances.ts';
import { createInstance } from '../instances/create/create.usecases.ts';
import { billingRecords, instances } from '../instances/instances.tables.ts';
import { renew } from '../instances/lifecycle/renewal.usecases.ts';
import { ledgerEntries } from '../ledger/ledger.tables.ts';
import { findUnbalancedAccounts } from '../ledger/ledger.ts';
import { rechargeOrders } from '../payments/payments.tables.ts';

const N = 10;

// Truly concurrent identical requests need real connections: PGlite runs one query at a time.
describe.runIf(process.env.DATABASE_URL)('identical requests racing on PostgreSQL', () => {
  const T0 = new Date('2026-11-22T08:00:00Z');
  const clock = fixedClock(T0);
  let h: Awaited<ReturnType<typeof instanceTestApp>>;
  beforeAll(async () => {
    h = await instanceTestApp(clock);
  });
  afterAll(() => h.t.close());

  const charges = (userId: number) =>
    h.t.db.$count(ledgerEntries, and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'charge')));
  const createBody = async (name: string) => ({
    machineId: await h.idOf('bj-a-a100-01'),
    instanceName: name,
    image: IMAGE,
    gpuAmount: 1,
    billingType: 'daily',
    duration: 1,
  });

  it(`${N} concurrent creates with one key make one instance and one charge`, async () => {
    const u = await h.funded(10_000);
    const headers = { ...u.headers, 'idempotency-key': 'pg-create-0001' };
    const body = await createBody('race');
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: N }, () => h.create(headers, body)));
    const ms = Math.round(performance.now() - started);
    // Whatever status create answers with (another change makes it answer at once), all agree.
    const first = answers[0];
    expect(first?.statusCode, first?.body).toBe(200);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(N - 1);
    expect(await h.t.db.$count(instances, eq(instances.userId, u.user.id))).toBe(1);
    expect(await charges(u.user.id)).toBe(1);
    expect(await h.balance(u.user.id)).toBe(10_000 - 135);
    console.info(`${N} concurrent creates with one Idempotency-Key: ${ms} ms`);
    await h.action(u.headers, 'release', first?.json().data.id);
  });

  it(`${N} concurrent renewals with one key charge and extend once`, async () => {
    const u = await h.funded(10_000);
    const created = await h.create(u.headers, await createBody('renew-race'));
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id as number;
    const [before] = await h.t.db.select().from(instances).where(eq(instances.id, id));
    const headers = { ...u.headers, 'idempotency-key': 'pg-renew-0001' };
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: N }, () =>
        h.t.app.inject({
          method: 'POST',
          url: '/api/v2/package-billing/manual-renewal',
          headers,
          payload: { instanceId: id, duration: 2 },
        }),
      ),
    );
    const ms = Math.round(performance.now() - started);
    expect(answers.map((a) => a.statusCode)).toEqual(Array(N).fill(200));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    const [after] = await h.t.db.select().from(instances).where(eq(instances.id, id));
    expect(after?.expiresAt?.getTime()).toBe((before?.expiresAt?.getTime() ?? 0) + 2 * 86_400_000);
    expect(await charges(u.user.id)).toBe(2); // purchase + one renewal
    expect(await h.balance(u.user.id)).toBe(10_000 - 135 * 3);
    expect(
      await h.t.db.$count(
        billingRecords,
        and(eq(billingRecords.instanceId, id), eq(billingRecords.kind, 'renewal')),
      ),
    ).toBe(1);
    console.info(`${N} concurrent renewals with one Idempotency-Key: ${ms} ms`);
    await h.action(u.headers, 'release', id);
  });

  it('two renewal transactions racing with one key (below the HTTP claim) post once', async () => {
    const u = await h.funded(10_000);
    const created = await h.create(u.headers, await createBody('ledger-race'));
    const id = created.json().data.id as number;
    const [before] = await h.t.db.select().from(instances).where(eq(instances.id, id));
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        renew(
          h.deps,
          { ...u.user, sessionId: 'test', accessToken: null },
          { instanceId: id, duration: 1 },
          'pg-ledger-0001',
        ),
      ),
    );
    expect(new Set(results.map((r) => r.expiresAt)).size).toBe(1);
    const [after] = await h.t.db.select().from(instances).where(eq(instances.id, id));
    expect(after?.expiresAt?.getTime()).toBe((before?.expiresAt?.getTime() ?? 0) + 86_400_000);
    expect(await charges(u.user.id)).toBe(2);
    expect(await h.balance(u.user.id)).toBe(10_000 - 135 * 2);
    await h.action(u.headers, 'release', id);
  });

  it('four create transactions racing with one key (below the HTTP claim) buy once', async () => {
    const u = await h.funded(10_000);
    const tenant = await h.t.app.deps.modules.tenants.service.resolve('localhost');
    const body = { ...(await createBody('create-race')), billingType: 'daily' as const };
    const user = { ...u.user, sessionId: 'test', accessToken: null };
    const made = await Promise.all(
      Array.from({ length: 4 }, () => createInstance(h.deps, user, tenant, body, 'pg-create-ledger-0001')),
    );
    expect(new Set(made.map((i) => i.id)).size).toBe(1);
    expect(await h.t.db.$count(instances, eq(instances.userId, u.user.id))).toBe(1);
    expect(await charges(u.user.id)).toBe(1);
    expect(await h.balance(u.user.id)).toBe(10_000 - 135);
    await h.deps.jobs.drain();
    await h.action(u.headers, 'release', made[0]?.id ?? 0);
  });

  it(`${N} concurrent recharge orders with one key make one order`, async () => {
    const u = await h.funded(0);
    for (const [url, payload] of [
      ['/api/pay/createQrCode', { amount: 500 }],
      ['/api/user/recharge?amount=500', undefined],
    ] as const) {
      const answers = await Promise.all(
        Array.from({ length: N }, () =>
          h.t.app.inject({
            method: 'POST',
            url,
            headers: { ...u.headers, 'idempotency-key': 'pg-recharge-0001' },
            ...(payload ? { payload } : {}),
          }),
        ),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(Array(N).fill(200));
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    }
    expect(await h.t.db.$count(rechargeOrders, eq(rechargeOrders.userId, u.user.id))).toBe(2);
    expect(await findUnbalancedAccounts(h.t.db)).toEqual([]);
  });
});
