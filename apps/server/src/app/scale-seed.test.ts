import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, SCALE_WHALE, type ScaleCounts, seedScale } from '../../bench/scale/seed.ts';
import { spendMismatches } from '../test/spend.ts';
import { createTestApp } from '../test/test-app.ts';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
type Row = Record<string, unknown>;

/** Rows a seed added to each table, against the counts before it. */
const added = (after: ScaleCounts, before: ScaleCounts) =>
  Object.fromEntries(Object.entries(after).map(([t, n]) => [t, n - (before[t as keyof ScaleCounts] ?? 0)]));

describe('scale seed (issue 33)', () => {
  let t: TestApp;
  let demo: ScaleCounts;
  let first: ScaleCounts;
  const rows = async (text: string) =>
    ((await t.db.execute(sql.raw(text))) as unknown as { rows: Row[] }).rows;

  beforeAll(async () => {
    t = await createTestApp();
    demo = await countRows(t.db);
    first = await seedScale(t.database, { fraction: 0.001 });
  }, 120_000);
  afterAll(() => t?.close());

  it('writes 0.1 % of every scaled table plus the whole whale', () => {
    expect(added(first, demo)).toMatchObject({
      tenants: 1, // nebula; the demo has the other two
      regions: 3, // the demo has five of the eight
      hosts: 1 + 1, // one fleet host and the whale's
      gpu_skus: 2,
      host_gpus: 8 + 8,
      host_ports: 200 + 200,
      users: 100 + 1,
      accounts: 101,
      instances: 20 + 200 + 8 + 10_010,
      instance_events: 20 + 400 + 8 + 20_020,
      simulated_containers: 20 + 8,
      ledger_entries: 10_000 + 10_100,
      billing_records: 10_000 + 20_020,
      recharge_orders: 2_000 + 10_010,
      vouchers: 500 + 10_010,
      voucher_configs: 12,
      audit_log: 1_000,
      instance_sample_rollups: 0, // one instance per 10 % of the hosts
    });
  });

  it('does nothing at the same or a smaller fraction, and adds only the difference at a larger one', async () => {
    expect(await seedScale(t.database, { fraction: 0.001 })).toEqual(first);
    expect(await seedScale(t.database, { fraction: 0.0005 })).toEqual(first);
    const second = await seedScale(t.database, { fraction: 0.002 });
    expect(added(second, first)).toEqual({
      ...Object.fromEntries(Object.keys(first).map((k) => [k, 0])),
      hosts: 1,
      gpu_skus: 1,
      host_gpus: 8,
      host_ports: 200,
      users: 100,
      accounts: 100,
      instances: 20 + 200,
      instance_events: 20 + 400,
      simulated_containers: 20,
      ledger_entries: 10_000,
      billing_records: 10_000,
      recharge_orders: 2_000,
      vouchers: 500,
      audit_log: 1_000,
    });
    // Whatever the increments, the rows are the ones of their indexes: no user without its block.
    const [perUser] = await rows(
      `select min(n) as lo, max(n) as hi from (select count(*) as n from ledger_entries
        where idempotency_key like 'scale:ledger:%' group by user_id) x`,
    );
    expect(perUser).toEqual({ lo: expect.anything(), hi: expect.anything() });
    expect(Number(perUser?.lo)).toBe(100);
    expect(Number(perUser?.hi)).toBe(100);
  }, 120_000);

  it('keeps allocations and money consistent', async () => {
    // A GPU-mode running instance holds its one GPU on its own host, and every held GPU is a running one's.
    const [gpus] = await rows(`
      select count(*) filter (where i.id is null or i.status <> 'RUNNING' or i.host_id <> g.host_id) as wrong,
             count(*) as held
      from host_gpus g left join instances i on i.id = g.instance_id where g.instance_id is not null`);
    expect(Number(gpus?.wrong)).toBe(0);
    expect(Number(gpus?.held)).toBeGreaterThan(8);
    const [running] = await rows(`
      select count(*) filter (where i.nogpu_rate is null and (select count(*) from host_gpus g
               where g.instance_id = i.id) <> i.gpu_count) as wrong,
             count(*) filter (where i.nogpu_rate is not null and exists (select 1 from host_gpus g
               where g.instance_id = i.id)) as nogpu_holding
      from instances i where i.status = 'RUNNING'`);
    expect(running).toEqual({ wrong: expect.anything(), nogpu_holding: expect.anything() });
    expect(Number(running?.wrong)).toBe(0);
    expect(Number(running?.nogpu_holding)).toBe(0);
    // Balance = Σ ledger, and the latest row's available_after says the same.
    const [money] = await rows(`
      select count(*) filter (where a.available <> s.total) as off_sum,
             count(*) filter (where a.available <> s.last_after) as off_last, count(*) as n
      from accounts a join (
        select user_id, sum(amount) as total,
               (array_agg(available_after order by id desc))[1] as last_after
        from ledger_entries group by user_id) s on s.user_id = a.user_id`);
    expect(Number(money?.n)).toBe(201);
    expect(Number(money?.off_sum)).toBe(0);
    expect(Number(money?.off_last)).toBe(0);
    // What each spent, kept on the account, = Σ of their bill lines (and the whale did spend).
    expect(await spendMismatches(t.database.db)).toEqual([]);
    const [whale] = await rows('select max(spent)::text as most from accounts');
    expect(Number(whale?.most)).toBeGreaterThan(0);
  });

  it('answers the market, the back office and the whale’s deep pages', async () => {
    const market = await t.app.inject({ method: 'GET', url: '/api/gpu/market' });
    expect(market.statusCode).toBe(200);
    expect(market.json().data.total).toBeGreaterThan(2);

    const admin = await t.adminHeaders();
    const users = await t.app.inject({
      method: 'GET',
      url: '/api/admin/user-management/users?page=2&size=10',
      headers: admin,
    });
    expect(users.statusCode).toBe(200);
    expect(users.json().data.total).toBeGreaterThanOrEqual(201);
    expect(users.json().data.list).toHaveLength(10);

    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'x-tenant-host': 'localhost' },
      payload: { phone: SCALE_WHALE.phone, password: SCALE_WHALE.password },
    });
    expect(login.statusCode).toBe(200);
    const headers = {
      authorization: `Bearer ${login.json().data.accessToken}`,
      'x-tenant-host': 'localhost',
    };
    const bills = await t.app.inject({
      method: 'GET',
      url: '/api/v2/billing/records?page=1000&size=10',
      headers,
    });
    expect(bills.statusCode).toBe(200);
    expect(bills.json().data.list).toHaveLength(10);
    expect(bills.json().data.total).toBeGreaterThanOrEqual(10_010);
  });
});
