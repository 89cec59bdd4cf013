import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rollTally } from '../../platform/db/tallies.ts';
import { IMAGE } from '../../test/instances.ts';
import { spendMismatches } from '../../test/spend.ts';
import { INSTANCES_TALLY } from '../instances/index.ts';
import { runMetering } from '../instances/tasks/billing-tasks.ts';
import { operationsSuite } from './operations.test-helpers.ts';

const { clock, h: app, renewAdmin, req, running } = operationsSuite();

describe('the back office users page’s figures (issue 33)', () => {
  it('lists, sorts, totals and summarises it as Σ of the user’s bill lines', async () => {
    // One pays by the hour (metered after an hour), one buys a day, one spends nothing.
    const hourly = await running(100, 'spend-hourly');
    const daily = await app().funded(1000);
    const bought = await app().create(daily.headers, {
      machineId: await app().idOf('bj-a-a100-01'),
      instanceName: 'spend-daily',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'daily',
      duration: 1,
    });
    expect(bought.statusCode, bought.body).toBe(200);
    const idle = await app().funded(5);
    clock.advance(3600_000);
    await runMetering(app().deps);
    await renewAdmin(); // admin tokens last an hour

    const linesOf = async (userId: number) => {
      const res = (await app().t.db.execute(
        sql`select coalesce(sum(amount), 0)::text as n from billing_records where user_id = ${userId}`,
      )) as unknown as { rows: { n: string }[] };
      return Number(res.rows[0]?.n) / 10_000;
    };
    const want = {
      hourly: await linesOf(hourly.user.id),
      daily: await linesOf(daily.user.id),
    };
    expect(want.hourly).toBe(3.98);
    expect(want.daily).toBeGreaterThan(want.hourly);
    expect(await spendMismatches(app().t.db)).toEqual([]);

    const list = async (q: string) => (await req('GET', `/api/admin/user-management/users${q}`)).json().data;
    const one = async (u: typeof idle) => (await list(`?keyword=${u.user.phone}`)).list[0].totalSpend;
    expect(await one(hourly)).toBe(want.hourly);
    expect(await one(daily)).toBe(want.daily);
    expect(await one(idle)).toBe(0);

    const desc = (await list('?sortBy=totalSpend&order=desc&size=100')).list;
    expect(desc.slice(0, 2).map((u: { id: number }) => u.id)).toEqual([daily.user.id, hourly.user.id]);
    const spends = desc.map((u: { totalSpend: number }) => u.totalSpend);
    expect(spends).toEqual([...spends].sort((a, b) => b - a));
    const asc = (await list('?sortBy=totalSpend&order=asc&size=100')).list;
    expect(asc.map((u: { totalSpend: number }) => u.totalSpend)).toEqual([...spends].reverse());

    const summary = await app().t.app.inject({
      method: 'GET',
      url: '/api/v2/billing/summary',
      headers: hourly.headers,
    });
    expect(summary.json().data).toMatchObject({ totalSpend: want.hourly, todaySpend: want.hourly });

    const all = (await app().t.db.execute(
      sql`select coalesce(sum(amount), 0)::text as n from billing_records`,
    )) as unknown as { rows: { n: string }[] };
    const stats = (await req('GET', '/api/admin/user-management/statistics')).json().data;
    expect(stats.totalSpend).toBe(Number(all.rows[0]?.n) / 10_000);
  });

  it('counts each user’s instances and running ones exactly, before and after a tally run', async () => {
    const u = await running(100, 'count-1');
    const row = async () =>
      (await (await req('GET', `/api/admin/user-management/users?keyword=${u.user.phone}`)).json()).data
        .list[0];
    expect(await row()).toMatchObject({ instances: 1, runningInstances: 1 });
    // Tallied up to now (no settle wait), then one more after the tally, then one released.
    expect(await rollTally(app().t.db, INSTANCES_TALLY, 0)).toBeGreaterThan(0);
    const second = await app().create(u.headers, {
      machineId: await app().idOf('nm-a-l40s-01'),
      instanceName: 'count-2',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'hourly',
    });
    expect(second.statusCode, second.body).toBe(200);
    await app().deps.jobs.drain();
    expect(await row()).toMatchObject({ instances: 2, runningInstances: 2 });
    await app().action(u.headers, 'release', u.id);
    await app().deps.jobs.drain();
    expect(await row()).toMatchObject({ instances: 2, runningInstances: 1 });
    await rollTally(app().t.db, INSTANCES_TALLY, 0);
    expect(await row()).toMatchObject({ instances: 2, runningInstances: 1 });
  });

  it('the page as it opens (one prepared statement) equals the general query, past the end too', async () => {
    for (let i = 0; i < 3; i++) await app().funded(1);
    const list = async (q: string) => (await req('GET', `/api/admin/user-management/users${q}`)).json().data;
    // A date range from long ago takes the general query over the same users.
    const general = '&startDate=2000-01-01&endDate=2099-12-31';
    for (const page of ['?page=1&size=2', '?page=2&size=2', '?page=1&size=100', '?page=999&size=10']) {
      const opening = await list(page);
      expect(opening).toEqual(await list(`${page}${general}`));
      expect(opening.total).toBeGreaterThanOrEqual(5);
    }
    expect((await list('?page=999&size=10')).list).toEqual([]);
  });
});
