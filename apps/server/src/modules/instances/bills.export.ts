import type { Bill } from '@gpu/shared';
import ExcelJS from 'exceljs';

const KIND_NAMES: Record<Bill['kind'], string> = {
  create: '包期下单',
  metering: '按量扣费',
  renewal: '续费',
  refund: '退款',
};
const TYPE_NAMES = { hourly: '按量计费', daily: '包日', weekly: '包周', monthly: '包月' } as const;
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
];

const local = (iso: string) =>
  new Date(iso).toLocaleString('zh-CN', { timeZone: 'Asia/Shanghai', hour12: false });
const row = (b: Bill) => [
  b.id,
  b.instanceName,
  TYPE_NAMES[b.billingType],
  KIND_NAMES[b.kind],
  local(b.periodStart),
  local(b.periodEnd),
  b.amount,
  b.voucherAmount,
  local(b.createdAt),
];

/** The expense details as an .xlsx workbook (times in Asia/Shanghai). */
export async function billsToXlsx(bills: Bill[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('费用明细');
  sheet.addRow(HEADERS).font = { bold: true };
  for (const b of bills) sheet.addRow(row(b));
  sheet.columns.forEach((c, i) => {
    c.width = [10, 24, 10, 10, 20, 20, 12, 16, 20][i];
  });
  sheet.getColumn(7).numFmt = '0.0000';
  sheet.getColumn(8).numFmt = '0.0000';
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const csvCell = (v: unknown) => {
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

/** The same as CSV, with a BOM so Excel opens the Chinese correctly. */
export function billsToCsv(bills: Bill[]): string {
  return `\uFEFF${[HEADERS, ...bills.map(row)].map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
