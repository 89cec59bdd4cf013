import type { Image, MarketItem, MarketList } from '@gpu/shared';
import { BILLING_TYPES, type BillingType, GPU_COUNT_MAX, MARKET_PAGE_SIZES } from '@gpu/shared/constants';
import { type Command, Option } from 'commander';
import type { Api } from '../api.ts';
import { contextOf } from '../context.ts';
import { CliError, EXIT } from '../exit.ts';
import { say } from '../messages.ts';
import { type Column, printJson, printLine, table, yuan } from '../output.ts';
import { int } from '../parse.ts';

interface MarketOptions {
  billing: BillingType;
  region?: string;
  gpu?: string;
  gpus?: number;
  keyword?: string;
  page: number;
  size: number;
}

const PERIOD = {
  zh: { hourly: '卡·时', daily: '卡·天', weekly: '卡·周', monthly: '卡·月' },
  en: { hourly: 'GPU·h', daily: 'GPU·day', weekly: 'GPU·week', monthly: 'GPU·month' },
} as const;

const marketColumns = (billing: BillingType, lang: 'zh' | 'en'): Column<MarketItem>[] => [
  { zh: '机器ID', en: 'MACHINE', value: (i) => i.id, right: true },
  { zh: 'GPU', en: 'GPU', value: (i) => i.gpuName },
  { zh: '显存', en: 'MEMORY', value: (i) => `${i.memoryGb}GB`, right: true },
  { zh: '空闲/总数', en: 'IDLE', value: (i) => `${i.gpuIdleNum}/${i.gpuNum}`, right: true },
  { zh: '地区', en: 'REGION', value: (i) => i.regionName },
  { zh: '主机', en: 'HOST', value: (i) => i.hostName },
  {
    zh: '价格',
    en: 'PRICE',
    value: (i) => {
      const price = billing === 'hourly' ? i.discountPrice : (i.packageDiscountPrice ?? i.packagePrice);
      return price === null ? '-' : `${yuan(price)}/${PERIOD[lang][billing]}`;
    },
    right: true,
  },
  { zh: '优惠', en: 'DISCOUNT', value: (i) => (i.hasDiscount ? i.discountDescription : '') },
  { zh: 'CUDA', en: 'CUDA', value: (i) => i.cudaVersion },
];

/** --region takes the region's id or its name (as listed by the market itself). */
async function regionId(api: Api, region: string | undefined, lang: 'zh' | 'en') {
  if (region === undefined || /^\d+$/.test(region)) return region;
  const { regions } = await api.get<MarketList>('/api/gpu/market', { size: MARKET_PAGE_SIZES[0] });
  const found = regions.find((r) => r.name === region);
  if (!found) {
    const names = regions.map((r) => r.name).join('、');
    throw new CliError(EXIT.usage, `${say(lang, 'regionUnknown')}: ${region} (${names})`);
  }
  return String(found.id);
}

const imageColumns: Column<Image>[] = [
  { zh: 'ID', en: 'ID', value: (i) => i.id, right: true },
  { zh: '名称', en: 'NAME', value: (i) => i.imageName },
  { zh: '框架', en: 'FRAMEWORK', value: (i) => `${i.frameworkType} ${i.frameworkVersion}`.trim() },
  { zh: 'Python', en: 'PYTHON', value: (i) => i.pythonVersion },
  { zh: 'CUDA', en: 'CUDA', value: (i) => i.cudaVersion },
  { zh: '镜像地址', en: 'IMAGE', value: (i) => i.imageUrl },
];

/** gpu market, gpu images. */
export function marketCommands(program: Command) {
  program
    .command('market')
    .description('GPU 市场（与控制台市场页相同的筛选）/ the GPU market, filtered as on the market page')
    .addOption(
      new Option('--billing <type>', '计费方式 / billing type').choices(BILLING_TYPES).default('hourly'),
    )
    .option('--region <region>', '地区编号或名称 / region id or name')
    .option('--gpu <model>', 'GPU 型号 / GPU model')
    .option(
      '--gpus <n>',
      `至少有 n 张空闲 GPU / at least n idle GPUs (1-${GPU_COUNT_MAX})`,
      int(1, GPU_COUNT_MAX),
    )
    .option('--keyword <text>', '按主机名搜索 / search host names')
    .option('--page <n>', '页码 / page', int(1, 10_000), 1)
    .addOption(
      new Option('--size <n>', '每页条数 / page size')
        .choices(MARKET_PAGE_SIZES.map(String))
        .argParser(Number)
        .default(MARKET_PAGE_SIZES[MARKET_PAGE_SIZES.length - 1]),
    )
    .action(async (opts: MarketOptions, cmd: Command) => {
      const ctx = contextOf(cmd);
      const api = ctx.api();
      const data = await api.get<MarketList>('/api/gpu/market', {
        page: opts.page,
        size: opts.size,
        billingType: opts.billing,
        regionId: await regionId(api, opts.region, ctx.lang),
        gpuModel: opts.gpu,
        gpuCount: opts.gpus,
        keyword: opts.keyword,
      });
      if (ctx.json) return printJson(data);
      printLine(
        data.list.length
          ? table(data.list, marketColumns(opts.billing, ctx.lang), ctx.lang)
          : say(ctx.lang, 'empty'),
      );
      const pages = Math.max(1, Math.ceil(data.total / data.size));
      printLine(`${say(ctx.lang, 'total')} ${data.total} (${data.page}/${pages})`);
    });

  program
    .command('images')
    .description('镜像目录 / the image catalogue')
    .option('--preset', '只看推荐镜像 / recommended images only')
    .option('--brand <brand>', 'GPU 品牌 / GPU brand (NVIDIA...)')
    .addOption(new Option('--platform <platform>', '平台 / platform').choices(['local', 'vast.ai', 'autodl']))
    .action(async (opts: { preset?: boolean; brand?: string; platform?: string }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const api = ctx.api();
      const list = opts.preset
        ? await api.get<Image[]>('/api/gpu/preset-images')
        : (
            await api.get<{ imageList: Image[] }>('/api/gpu/images', {
              gpuBrand: opts.brand,
              platformType: opts.platform,
            })
          ).imageList;
      if (ctx.json) return printJson(list);
      printLine(list.length ? table(list, imageColumns, ctx.lang) : say(ctx.lang, 'empty'));
    });
}
