import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { ExportBill } from './bills.export.ts';
import { writeBillsXlsxOffThread, XLSX_WORKERS_MAX } from './bills.xlsx-thread.ts';

const T0 = Date.parse('2026-11-22T08:00:00Z');
const bill = (tag: string, i: number): ExportBill => ({
  recordNo: `B${String(i).padStart(8, '0')}`,
  instanceName: `${tag}-${i}`,
  billingType: 'hourly',
  kind: 'metering',
  periodStart: new Date(T0 + i * 3_600_000),
  periodEnd: new Date(T0 + (i + 1) * 3_600_000),
  amount: 19_800 + i,
  voucherAmount: 0,
  hourlyRate: 19_800,
  createdAt: new Date(T0 + i * 3_600_000),
});

/** `batches` batches of `size` bills; what was read, whether it was closed early; a failure at batch `failAt`. */
function source(tag: string, batches: number, size: number, failAt = -1) {
  const seen = { pulled: 0, closed: false };
  async function* read() {
    try {
      for (let b = 0; b < batches; b++) {
        if (b === failAt) throw new Error('database went away');
        seen.pulled++;
        yield Array.from({ length: size }, (_, k) => bill(tag, b * size + k));
      }
    } finally {
      seen.closed = seen.pulled < batches;
    }
  }
  return { batches: read(), seen };
}

async function bytesOf(out: PassThrough) {
  const chunks: Buffer[] = [];
  for await (const c of out) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function rowsOf(bytes: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as never);
  const rows: unknown[][] = [];
  wb.getWorksheet('费用明细')?.eachRow((r) => {
    rows.push((r.values as unknown[]).slice(1));
  });
  return rows;
}

async function exportOf(tag: string, batches: number, size: number, opts?: { maxWorkers?: number }) {
  const out = new PassThrough();
  const [bytes] = await Promise.all([
    bytesOf(out),
    writeBillsXlsxOffThread(source(tag, batches, size).batches, out, opts),
  ]);
  return rowsOf(bytes);
}

describe('xlsx export in a worker thread (issue 33)', () => {
  it('writes the same workbook as on the request thread', async () => {
    const inWorker = await exportOf('a', 3, 1000);
    const here = await exportOf('a', 3, 1000, { maxWorkers: 0 });
    expect(inWorker).toHaveLength(3001);
    expect(inWorker).toEqual(here);
    expect(inWorker[1]).toEqual([
      'B00000000',
      'a-0',
      '按量计费',
      '按量扣费',
      '2026-11-22 16:00:00',
      '2026-11-22 17:00:00',
      1.98,
      0,
      '2026-11-22 16:00:00',
      1.98,
    ]);
    expect(inWorker.at(-1)?.[1]).toBe('a-2999');
  }, 60_000);

  it(`runs more exports at once than ${XLSX_WORKERS_MAX} workers, each with its own rows`, async () => {
    const tags = Array.from({ length: XLSX_WORKERS_MAX + 2 }, (_, k) => `t${k}`);
    const all = await Promise.all(tags.map((tag) => exportOf(tag, 4, 250)));
    all.forEach((rows, k) => {
      expect(rows).toHaveLength(1001);
      expect(rows.slice(1).every((r) => String(r[1]).startsWith(`${tags[k]}-`))).toBe(true);
    });
  }, 60_000);

  it('stops reading when the download goes away, and the next export still works', async () => {
    const { batches, seen } = source('gone', 500, 1000);
    const out = new PassThrough();
    out.once('data', () => out.destroy());
    await expect(writeBillsXlsxOffThread(batches, out)).rejects.toThrow('the download was closed');
    expect(seen.closed).toBe(true);
    expect(seen.pulled).toBeLessThan(500);
    expect(await exportOf('after', 2, 10)).toHaveLength(21);
  }, 60_000);

  it('fails the download when the rows fail midway, and the next export still works', async () => {
    const out = new PassThrough();
    out.resume();
    await expect(writeBillsXlsxOffThread(source('bad', 10, 100, 3).batches, out)).rejects.toThrow(
      'database went away',
    );
    expect(await exportOf('after', 2, 10)).toHaveLength(21);
  }, 60_000);

  it('stops reading while the client takes nothing (a stalled download holds a bounded part)', async () => {
    // The bound is the compressor's lag: rows sent before their first bytes come out and fill
    // the body (4-19 batches of 1,000 measured, more on a loaded machine); all 100 without the
    // body-room check.
    const batches = 100;
    const { batches: rows, seen } = source('slow', batches, 1000);
    const out = new PassThrough({ highWaterMark: 16 * 1024 });
    const done = writeBillsXlsxOffThread(rows, out);
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    let pulled = -1;
    for (let i = 0; i < 20 && seen.pulled !== pulled; i++) {
      pulled = seen.pulled;
      await wait(1000);
    }
    expect(seen.pulled).toBe(pulled);
    expect(pulled).toBeGreaterThan(0);
    expect(pulled).toBeLessThanOrEqual(batches / 2);
    const [bytes] = await Promise.all([bytesOf(out), done]);
    expect(await rowsOf(bytes)).toHaveLength(batches * 1000 + 1);
  }, 120_000);
});
