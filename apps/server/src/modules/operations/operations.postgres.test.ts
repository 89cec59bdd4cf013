import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../test/instances.ts';
import { auditLog } from '../audit/audit.tables.ts';
import { hostGpus } from '../hosts/hosts.tables.ts';
import { ledgerEntries } from '../ledger/ledger.tables.ts';
import { findUnbalancedAccounts } from '../ledger/ledger.ts';
import { userNotices } from '../notices/notices.tables.ts';

// Real lock contention needs real connections: PGlite runs one transaction at a time.
describe.runIf(process.env.DATABASE_URL)('force-stop on PostgreSQL, racing', () => {
  const clock = fixedClock('2026-11-22T08:00:00Z');
  let h: Awaited<ReturnType<typeof instanceTestApp>>;
  beforeAll(async () => {
    h = await instanceTestApp(clock);
  });
  afterAll(() => h.t.close());

  it('four admins force-stopping one instance at once: one stop, one charge, GPUs freed once', async () => {
    const u = await h.funded(100);
    const res = await h.create(u.headers, {
      machineId: await h.idOf('nm-a-l40s-01'),
      instanceName: 'race',
      image: IMAGE,
      gpuAmount: 2,
      billingType: 'hourly',
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id as number;
    clock.advance(3600_000);
    const admin = await h.t.adminHeaders();
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() =>
        h.t.app.inject({
          method: 'POST',
          url: `/api/admin/instance-monitor/force-stop/${id}?reason=race`,
          headers: admin,
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409]);
    // The one accepted answers STOPPING; its job stops the container and commits STOPPED.
    expect(answers.find((a) => a.statusCode === 200)?.json().data.status).toBe('STOPPING');
    await h.deps.jobs.drain();
    expect(await h.t.db.select().from(hostGpus).where(eq(hostGpus.instanceId, id))).toEqual([]);
    const charges = await h.t.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, u.user.id), eq(ledgerEntries.kind, 'charge')));
    // Two L40S for one hour: 7.96 yuan, charged once.
    expect(charges.reduce((s, e) => s + e.amount, 0)).toBe(-79_600);
    expect(
      await h.t.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.target, `instance:${id}`)),
    ).toHaveLength(1);
    expect(await h.t.db.select().from(userNotices).where(eq(userNotices.instanceId, id))).toHaveLength(1);
    expect(await findUnbalancedAccounts(h.t.db)).toEqual([]);
  });
});
