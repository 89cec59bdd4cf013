import { Readable } from 'node:stream';
import { BILL_KIND_NAMES } from '@gpu/shared';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { rollTally } from '../../../platform/db/tallies.ts';
import { IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { BILL_LINES_TALLY } from './bills.repository.ts';

// Issue 10: several kinds at once, one label per kind, exports without a cap.
const clock = fixedClock(new Date('2026-11-22T08:00:00Z'));
let h: Awaited<ReturnType<typeof instanceTestApp>>;
let u: Awaited<ReturnType<typeof h.funded>>;
let id: number;
const MANY = 60_000;

beforeAll(async () => {
  h = await instanceTestApp(clock);
  u = await h.funded(1000);
  const res = await h.create(u.headers, {
    machineId: await h.idOf('bj-a-a100-01'),
    instanceName: 'exp',
    image: IMAGE,
    gpuAmount: 1,
    billingType: 'daily',
    duration: 1,
  });
  expect(res.statusCode, res.body).toBe(200);
  id = res.json().data.id;
  await h.t.app.inject({
    method: 'POST',
    url: '/api/v2/package-billing/manual-renewal',
    headers: u.headers,
    payload: { instanceId: id, duration: 1 },
  });
  // Many metering-like lines, written in one statement (older than the create, so they sort after it).
  await h.t.db.execute(sql`
    insert into billing_records
      (tenant_id, user_id, instance_id, billing_type, kind, period_start, period_end, amount, created_at)
    select ${u.user.tenantId}, ${u.user.id}, ${id}, 'hourly', 'metering', ts, ts + interval '1 hour', 1234, ts
    from generate_series(1, ${MANY}) g, lateral (select timestamptz '2020-01-01' + g * interval '1 hour' as ts) x`);
}, 60_000);
afterAll(() => h.t.close());

const get = (url: string) => h.t.app.inject({ method: 'GET', url, headers: u.headers });

describe('bills API', () => {
  it('filters on several kinds at once: kind=a,b or kind=a&kind=b; one kind as before; a bad one is a 400', async () => {
    const total = async (q: string) => {
      const res = await get(`/api/v2/billing/records?${q}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.total as number;
    };
    expect(await total('kind=create,renewal')).toBe(2);
    expect(await total('kind=create&kind=renewal')).toBe(2);
    expect(await total('kind=renewal')).toBe(1);
    expect(await total('kind=metering,refund')).toBe(MANY);
    expect(await total('kind=')).toBe(MANY + 2);
    const list = (await get('/api/v2/billing/records?kind=renewal,create&size=5')).json().data.list;
    expect(list.map((b: { kind: string }) => b.kind)).toEqual(['renewal', 'create']);
    const bad = await get('/api/v2/billing/records?kind=create,nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('kind');
  });

  it(`exports all ${MANY + 2} rows as CSV (no 50,000 cap), amounts with two decimals, labels as on screen`, async () => {
    const res = await get('/api/v2/billing/export?format=csv');
    expect(res.statusCode).toBe(200);
    const lines = res.body.split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(MANY + 3);
    // Newest (highest id) first: the generated lines, then renewal and create.
    expect(lines[1]?.split(',')[6]).toBe('0.12'); // 1234 units, as the one formatter shows it
    expect(lines.at(-2)?.split(',')[3]).toBe(BILL_KIND_NAMES.renewal);
    expect(lines.at(-1)?.split(',')[3]).toBe('新购');
    expect(lines.at(-1)?.split(',')[4]).toBe('2026-11-22 16:00:00');
    expect(
      (await get('/api/v2/billing/export?format=csv&kind=create,renewal')).body.split('\r\n'),
    ).toHaveLength(4);
  }, 60_000);

  it(`exports all ${MANY + 2} rows as xlsx (streamed)`, async () => {
    const res = await get('/api/v2/billing/export?format=xlsx');
    expect(res.statusCode).toBe(200);
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(res.rawPayload), {
      worksheets: 'emit',
      sharedStrings: 'cache',
      styles: 'cache',
    });
    let rows = 0;
    let last: unknown[] = [];
    let formats: unknown[] = [];
    for await (const sheet of reader) {
      for await (const r of sheet as AsyncIterable<ExcelJS.Row>) {
        rows++;
        last = (r.values as unknown[]).slice(1);
        formats = Array.from({ length: 10 }, (_, i) => r.getCell(i + 1).numFmt ?? null);
      }
    }
    expect(rows).toBe(MANY + 3);
    expect(last[3]).toBe('新购');
    expect(last[6]).toBe(135);
    // Money (amount, voucher, rate) as 0.00; the rest as Excel shows it by default.
    expect(formats).toEqual([null, null, null, null, null, null, '0.00', '0.00', null, '0.00']);
  }, 60_000);

  it('keeps every total exact once the lines are tallied, and counts the lines after it (issue 33)', async () => {
    const total = async (q: string) => {
      const res = await get(`/api/v2/billing/records?${q}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.total as number;
    };
    const queries = [
      '',
      'kind=create,renewal',
      'kind=metering',
      'billingType=hourly',
      'kind=metering&billingType=daily',
      'page=10000', // past the end: no row to carry the total
      'from=2020-01-01&to=2020-01-31', // a date range (Shanghai days): counted, not tallied
      `instanceId=${id}`,
    ];
    const before = await Promise.all(queries.map(total));
    expect(before).toEqual([MANY + 2, 2, MANY, MANY, 0, MANY + 2, 735, MANY + 2]);
    expect(await rollTally(h.t.db, BILL_LINES_TALLY, 0)).toBe(MANY + 2);
    expect(await Promise.all(queries.map(total))).toEqual(before);
    // A line after the tally: counted live until the next run takes it in.
    const renewal = await h.t.app.inject({
      method: 'POST',
      url: '/api/v2/package-billing/manual-renewal',
      headers: u.headers,
      payload: { instanceId: id, duration: 1 },
    });
    expect(renewal.statusCode, renewal.body).toBe(200);
    const after = [MANY + 3, 3, MANY, MANY, 0, MANY + 3, 735, MANY + 3];
    expect(await Promise.all(queries.map(total))).toEqual(after);
    expect(await rollTally(h.t.db, BILL_LINES_TALLY, 0)).toBe(1);
    expect(await Promise.all(queries.map(total))).toEqual(after);
  });

  it('gives every page the same rows whichever end it is read from (issue 33)', async () => {
    const ids = async (q: string) => {
      const res = await get(`/api/v2/billing/records?${q}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.list.map((b: { id: number }) => b.id) as number[];
    };
    // instanceId takes the general query (every line is this instance's): the reference.
    const total = MANY + 3;
    for (const [page, size] of [
      [1, 7],
      [Math.floor(total / 14), 7], // just before the middle: read from the front
      [Math.ceil(total / 14) + 1, 7], // just past it: read from the back
      [Math.ceil(total / 7), 7], // the last, partial page
      [Math.floor(total / 100), 100],
      // Far from both ends: from the nearest bookmark (every 1,000th line, ascending), the page
      // starting on one, one ending just before one, and one across one.
      // (total = 60,003: the pages' first lines, ascending, are 5,000; 4,987–4,999; 2,995–3,001.)
      [4231, 13],
      [4232, 13],
      [8144, 7],
    ] as const) {
      const q = `page=${page}&size=${size}`;
      const read = await ids(q);
      expect(read.length, q).toBeGreaterThan(0);
      expect(read, q).toEqual(await ids(`${q}&instanceId=${id}`));
    }
    expect(await ids(`page=${Math.ceil(total / 7)}&size=7`)).toHaveLength(total % 7 || 7);
    const orders = await ids('kind=create,renewal,refund&page=2&size=2');
    expect(orders).toEqual(await ids(`kind=create,renewal,refund&page=2&size=2&instanceId=${id}`));
    expect(orders).toHaveLength(1);
  });

  it('adds each line to the Shanghai day it was made in, right at midnight (daily consumption)', async () => {
    const v = await h.funded(0);
    const at = (
      iso: string,
      units: number,
    ) => sql`(${u.user.tenantId}, ${v.user.id}, ${id}, 'hourly', 'metering',
      ${iso}::timestamptz, ${iso}::timestamptz, ${units}, ${iso}::timestamptz)`;
    await h.t.db.execute(sql`
      insert into billing_records
        (tenant_id, user_id, instance_id, billing_type, kind, period_start, period_end, amount, created_at)
      values ${sql.join(
        [
          at('2026-11-19T15:59:59Z', 320_000), // 11-19 23:59:59 in Shanghai: before the first day
          at('2026-11-19T16:00:00Z', 10_000), // 11-20 00:00
          at('2026-11-20T15:59:59.999Z', 20_000), // 11-20 23:59:59.999
          at('2026-11-20T16:00:00Z', 40_000), // 11-21 00:00
          at('2026-11-21T15:59:59Z', 80_000),
          at('2026-11-21T16:00:00Z', 160_000), // 11-22 00:00 (today)
        ],
        sql`, `,
      )}`);
    const res = await h.t.app.inject({
      method: 'GET',
      url: '/api/v2/billing/daily-consumption?days=3',
      headers: v.headers,
    });
    expect(res.json().data).toEqual([
      { date: '2026-11-20', amount: 3 },
      { date: '2026-11-21', amount: 12 },
      { date: '2026-11-22', amount: 16 },
    ]);
  });
});
