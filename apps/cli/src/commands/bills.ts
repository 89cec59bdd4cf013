import type { Bill, Page } from '@gpu/shared';
import { BILLING_TYPES, type BillingType } from '@gpu/shared/constants';
import { BILL_KIND_NAMES, BILL_KINDS } from '@gpu/shared/labels';
import { type Command, Option } from 'commander';
import { contextOf } from '../context.ts';
import { say } from '../messages.ts';
import { billingName, type Column, printJson, printLine, shortTime, table, yuan } from '../output.ts';
import { day, int } from '../parse.ts';

interface BillsOptions {
  page: number;
  size: number;
  instance?: number;
  kind?: string[];
  billing?: BillingType;
  from?: string;
  to?: string;
}

/** gpu bills: the bills screen's list (费用明细). */
export function billCommands(program: Command) {
  program
    .command('bills')
    .description('费用明细 / bills')
    .option('--page <n>', '页码 / page', int(1, 10_000), 1)
    .option('--size <n>', '每页条数 / page size (1-100)', int(1, 100), 20)
    .option('--instance <id>', '只看该实例 / one instance only', int(1))
    .addOption(new Option('--kind <kind...>', '类型 / kind').choices(BILL_KINDS))
    .addOption(new Option('--billing <type>', '计费方式 / billing type').choices(BILLING_TYPES))
    .option('--from <day>', '开始日期 YYYY-MM-DD / from day', day)
    .option('--to <day>', '结束日期 YYYY-MM-DD / to day', day)
    .action(async (opts: BillsOptions, cmd: Command) => {
      const ctx = contextOf(cmd);
      const page = await ctx.api().get<Page<Bill>>('/api/v2/billing/user/records', {
        page: opts.page,
        size: opts.size,
        instanceId: opts.instance,
        kind: opts.kind?.join(','),
        billingType: opts.billing,
        from: opts.from,
        to: opts.to,
      });
      if (ctx.json) return printJson(page);
      const columns: Column<Bill>[] = [
        { zh: '编号', en: 'RECORD', value: (b) => b.recordNo },
        { zh: '实例', en: 'INSTANCE', value: (b) => `${b.instanceId} ${b.instanceName}` },
        { zh: '类型', en: 'KIND', value: (b) => (ctx.lang === 'zh' ? BILL_KIND_NAMES[b.kind] : b.kind) },
        { zh: '计费', en: 'BILLING', value: (b) => billingName(b.billingType, ctx.lang) },
        { zh: '金额', en: 'AMOUNT', value: (b) => yuan(b.amount), right: true },
        {
          zh: '代金券',
          en: 'VOUCHER',
          value: (b) => (b.voucherAmount ? yuan(b.voucherAmount) : ''),
          right: true,
        },
        { zh: '时段', en: 'PERIOD', value: (b) => `${shortTime(b.periodStart)} ~ ${shortTime(b.periodEnd)}` },
      ];
      printLine(page.list.length ? table(page.list, columns, ctx.lang) : say(ctx.lang, 'empty'));
      const pages = Math.max(1, Math.ceil(page.total / page.size));
      printLine(`${say(ctx.lang, 'total')} ${page.total} (${page.page}/${pages})`);
    });
}
