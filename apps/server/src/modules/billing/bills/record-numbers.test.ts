import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type Bill, billQuerySchema } from '@gpu/shared';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { MIGRATIONS_DIR } from '../../../platform/db/client.ts';
import { DOC_PREFIXES, docNoSql, newDocNo } from '../../../platform/doc-no.ts';
import { IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { runMetering } from '../../instances/tasks/billing-tasks.ts';
import { newOrderNo } from '../../payments/payments.models.ts';

// Issue 28: orders and bills carry numbers like recharge orders (prefix, Shanghai stamp, random).
const T0 = new Date('2026-11-22T08:00:00Z'); // 16:00:00 in Shanghai
const STAMP = '20261122160000';
const clock = fixedClock(T0);
const NO = /^(RC|OD|BL)\d{14}[0-9A-F]{12}$/;
let h: Awaited<ReturnType<typeof instanceTestApp>>;

beforeAll(async () => {
  h = await instanceTestApp(clock);
}, 60_000);
afterAll(() => h.t.close());

/** A raw query's rows (execute's answer is typed per driver). */
const query = async <T>(q: SQL) => (await h.t.db.execute(q)) as unknown as { rows: T[] };

const records = async (headers: Record<string, string>, q = '') => {
  const res = await h.t.app.inject({ method: 'GET', url: `/api/v2/billing/records?size=100${q}`, headers });
  return res;
};
const list = async (headers: Record<string, string>, q = '') =>
  (await records(headers, q)).json().data.list as Bill[];

describe('one numbering for recharge orders, instance orders and bills', () => {
  it('is prefix + Shanghai yyyyMMddHHmmss + 12 hex, 28 characters, never repeating', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5_000; i++) seen.add(newDocNo(DOC_PREFIXES.order, T0));
    expect(seen.size).toBe(5_000);
    for (const no of [newOrderNo(T0), newDocNo(DOC_PREFIXES.order, T0), newDocNo(DOC_PREFIXES.bill, T0)]) {
      expect(no).toMatch(NO);
      expect(no).toHaveLength(28);
      expect(no.slice(2, 16)).toBe(STAMP);
    }
    expect(newOrderNo(T0).startsWith('RC')).toBe(true);
  });

  it("the database's twin (metering's bulk insert) writes the same shape", async () => {
    const rows = await query<{ no: string }>(
      sql`select ${docNoSql(DOC_PREFIXES.bill, sql`${T0.toISOString()}::timestamptz`)} as no from generate_series(1, 200)`,
    );
    const nos = rows.rows.map((r) => r.no);
    expect(new Set(nos).size).toBe(200);
    for (const no of nos) expect(no).toMatch(new RegExp(`^BL${STAMP}[0-9A-F]{12}$`));
  });

  it('numbers orders (new, renewal, refund) OD…, metering lines BL…, stamped with their time; search finds one', async () => {
    clock.set(T0);
    const u = await h.funded(1000);
    const daily = await h.create(u.headers, {
      machineId: await h.idOf('bj-a-a100-01'),
      instanceName: 'pkg',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'daily',
      duration: 1,
    });
    expect(daily.statusCode, daily.body).toBe(200);
    const hourly = await h.create(u.headers, {
      machineId: await h.idOf('nm-a-l40s-01'),
      instanceName: 'meter',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'hourly',
    });
    expect(hourly.statusCode, hourly.body).toBe(200);
    clock.set(new Date(T0.getTime() + 10 * 60_000));
    await runMetering(h.deps);
    const bills = await list(u.headers);
    const create = bills.find((b) => b.kind === 'create');
    const meter = bills.find((b) => b.kind === 'metering');
    expect(create?.recordNo).toMatch(new RegExp(`^OD${STAMP}[0-9A-F]{12}$`));
    // The line's own time (it starts when the instance started running), not the database's clock.
    expect(meter?.recordNo).toMatch(/^BL20261122\d{6}[0-9A-F]{12}$/);
    expect(meter?.recordNo.slice(2, 16)).toBe(
      meter?.createdAt &&
        new Date(new Date(meter.createdAt).getTime() + 8 * 3_600_000)
          .toISOString()
          .replace(/\D/g, '')
          .slice(0, 14),
    );
    // Searched as typed (spaces, lower case): exactly that line.
    const found = await list(
      u.headers,
      `&recordNo=${encodeURIComponent(` ${create?.recordNo.toLowerCase()} `)}`,
    );
    expect(found.map((b) => b.id)).toEqual([create?.id]);
    // Another customer's number finds nothing for them.
    const other = await h.funded(100);
    expect(await list(other.headers, `&recordNo=${create?.recordNo}`)).toEqual([]);
    // A malformed number is a 400 naming the field in Chinese.
    const bad = await records(u.headers, '&recordNo=OD123');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('订单/账单编号格式不正确');
    // The export's first column is the number.
    const csv = await h.t.app.inject({
      method: 'GET',
      url: '/api/v2/billing/export?format=csv',
      headers: u.headers,
    });
    expect(csv.body).toContain(`\r\n${create?.recordNo},`);
  });

  it('the migration numbers existing lines from their time and id, the same on every run, and unique', async () => {
    const file = readFileSync(path.join(MIGRATIONS_DIR, '0008_record_numbers.sql'), 'utf8');
    const statements = file.split('--> statement-breakpoint').map((s) => s.trim());
    const backfill = statements.find((s) => s.startsWith('UPDATE'));
    if (!backfill) throw new Error('no backfill in 0008');
    const before = await query<{ id: number; kind: string; created_at: string }>(
      sql`select id, kind, created_at from billing_records order by id`,
    );
    expect(new Set(before.rows.map((r) => r.kind))).toEqual(new Set(['create', 'metering']));
    // Replay the migration on this table as if the column never existed.
    await h.t.db.execute(sql`alter table billing_records drop column record_no`);
    for (const s of statements) await h.t.db.execute(sql.raw(s));
    const first = await query<{ id: number; record_no: string; kind: string; stamp: string }>(
      sql`select id, record_no, kind, to_char(created_at at time zone 'Asia/Shanghai', 'YYYYMMDDHH24MISS') as stamp
          from billing_records order by id`,
    );
    for (const r of first.rows) {
      const prefix = r.kind === 'metering' ? 'BL' : 'OD';
      expect(r.record_no).toBe(
        `${prefix}${r.stamp}${Number(r.id).toString(16).toUpperCase().padStart(12, '0')}`,
      );
    }
    expect(new Set(first.rows.map((r) => r.record_no)).size).toBe(first.rows.length);
    // Deterministic: the backfill again gives the same numbers.
    await h.t.db.execute(sql.raw(backfill));
    const again = await query<{ record_no: string }>(sql`select record_no from billing_records order by id`);
    expect(again.rows.map((r) => r.record_no)).toEqual(first.rows.map((r) => r.record_no));
    // The unique index holds.
    const [one] = first.rows;
    await expect(
      h.t.db.execute(sql`update billing_records set record_no = ${one?.record_no} where id <> ${one?.id}`),
    ).rejects.toThrow();
  });
});

it('the query schema trims and upper-cases a typed number', () => {
  const no = newDocNo(DOC_PREFIXES.bill, T0);
  expect(billQuerySchema.parse({ recordNo: ` ${no.toLowerCase()} ` }).recordNo).toBe(no);
  expect(billQuerySchema.parse({ recordNo: '' }).recordNo).toBeUndefined();
  expect(billQuerySchema.safeParse({ recordNo: 'RC20261122160000AAAAAAAAAAAA' }).success).toBe(false);
});
