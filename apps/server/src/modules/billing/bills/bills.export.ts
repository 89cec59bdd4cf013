import type { Writable } from 'node:stream';
import { BILL_KIND_NAMES, BILLING_TYPE_NAMES, type Bill, type BillingType, formatUnits } from '@gpu/shared';
import { formatTime } from '@gpu/shared/time';
import ExcelJS from 'exceljs';

const HEADERS = [
  '账单编号',
  '实例',
  '计费方式',
  '类型',
  '计费开始',
  '计费结束',
  '金额（元）',
  '代金券抵扣（元）',
  '时间',
  // Metering lines' rate (按量扣费, 无卡模式: issue 30); empty for orders.
  '单价（元/时）',
];
const WIDTHS = [30, 24, 10, 10, 20, 20, 12, 16, 20, 14];
/** Money columns (amount, voucher, rate) formatted 0.00; one shared object per kind (see below). */
const MONEY_STYLE: Partial<ExcelJS.Style> = { numFmt: '0.00' };
const PLAIN_STYLE: Partial<ExcelJS.Style> = {};
const CELL_STYLES = WIDTHS.map((_, i) => (i === 6 || i === 7 || i === 9 ? MONEY_STYLE : PLAIN_STYLE));

/**
 * A bill line as the repository reads it: amounts in units, times as Dates. The export formats
 * these straight (going through yuan and ISO text first cost the CSV a sixth of its speed).
 */
export interface ExportBill {
  recordNo: string;
  instanceName: string;
  billingType: BillingType;
  kind: string;
  periodStart: Date;
  periodEnd: Date;
  amount: number;
  voucherAmount: number;
  hourlyRate: number | null;
  createdAt: Date;
}

/** One bill as a row; amounts as the one formatter shows them (two decimals), labels from the shared map. */
const row = (b: ExportBill, money: (units: number) => string | number) => [
  b.recordNo,
  b.instanceName,
  BILLING_TYPE_NAMES[b.billingType],
  BILL_KIND_NAMES[b.kind as Bill['kind']],
  formatTime(b.periodStart),
  formatTime(b.periodEnd),
  money(b.amount),
  money(b.voucherAmount),
  formatTime(b.createdAt),
  b.hourlyRate === null ? '' : money(b.hourlyRate),
];

/** One row's cells as the workbook holds them: amounts as numbers, rounded as formatYuan shows them. */
export type XlsxRow = (string | number)[];
const yuanNumber = (units: number) => Number(formatUnits(units));
export const xlsxRow = (b: ExportBill): XlsxRow => row(b, yuanNumber);

/**
 * The expense details as an .xlsx workbook (times in Asia/Shanghai), written to `out` as the
 * batches arrive (ExcelJS's streaming writer: each row is committed and leaves memory), so an
 * export has no size cap. Amounts are formatted 0.00. (bills.xlsx-thread.ts runs this in a worker.)
 */
export async function writeXlsxRows(batches: AsyncIterable<XlsxRow[]>, out: Writable): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  const sheet = wb.addWorksheet('费用明细');
  sheet.columns = WIDTHS.map((width) => ({ width }));
  const head = sheet.addRow(HEADERS);
  head.font = { bold: true };
  head.commit();
  for await (const rows of batches) {
    for (const cells of rows) {
      const r = sheet.addRow(cells);
      // The same style object for every cell of a column: ExcelJS recognises an object it has
      // seen and skips serialising the style again, which was most of the export's time.
      CELL_STYLES.forEach((style, i) => {
        r.getCell(i + 1).style = style;
      });
      r.commit();
    }
  }
  sheet.commit();
  await wb.commit();
}

/** The bills as an .xlsx workbook on this thread (writeXlsxRows of their rows). */
export async function writeBillsXlsx(batches: AsyncIterable<ExportBill[]>, out: Writable): Promise<void> {
  async function* rows() {
    for await (const bills of batches) yield bills.map(xlsxRow);
  }
  await writeXlsxRows(rows(), out);
}

const csvCell = (v: unknown) => {
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};
const csvLine = (cells: unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** The same as CSV text, chunk by chunk, with a BOM so Excel opens the Chinese correctly. */
export async function* billsCsv(batches: AsyncIterable<ExportBill[]>): AsyncGenerator<string> {
  yield `\uFEFF${csvLine(HEADERS)}`;
  for await (const bills of batches) {
    if (bills.length > 0) yield bills.map((b) => csvLine(row(b, (u) => formatUnits(u)))).join('');
  }
}
