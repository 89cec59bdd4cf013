import {
  GPU_COUNT_MIN,
  type MarketItem,
  type MarketList,
  type MarketQuery,
  MODEL_FILTER_CAP,
  OVERSEAS_EXTRA_MODEL,
  type PackagePrices,
  unitPrices,
  unitsToYuan,
} from '@gpu/shared';
import { bestDiscount, type DiscountRule, toDiscountResult } from '../discounts/index.ts';
import type { MarketRow } from './market.repository.ts';

/** Market ids are `gpu-<sku id>` (overseas offers will be `vast-<offer id>`). */
export const skuGpuIdOf = (skuId: number) => `gpu-${skuId}`;

export const packageKey = (gpuType: string, regionId: number, platform = 'local') =>
  `${gpuType}|${regionId}|${platform}`;

/**
 * The package prices that apply to a row: the tenant's own per period where set, else the
 * platform's (a 0 there means the fallback factors). The one place market, quote and create read.
 */
export function packagePricesOf(
  r: MarketRow,
  platform: PackagePrices | null | undefined,
): PackagePrices | null {
  if (r.tenantDaily === null && r.tenantWeekly === null && r.tenantMonthly === null) return platform ?? null;
  return {
    daily: r.tenantDaily ?? platform?.daily ?? 0,
    weekly: r.tenantWeekly ?? platform?.weekly ?? 0,
    monthly: r.tenantMonthly ?? platform?.monthly ?? 0,
  };
}

/** SPEC.md §5 market filtering: idle ≥ the chosen count (at least 1), model, region, host-name search. */
export function filterRows(rows: MarketRow[], q: MarketQuery): MarketRow[] {
  const minIdle = Math.max(q.gpuCount ?? GPU_COUNT_MIN, GPU_COUNT_MIN);
  const keyword = q.keyword?.toLowerCase();
  const model = q.gpuModel?.toLowerCase();
  return rows.filter(
    (r) =>
      r.gpuIdleNum >= minIdle &&
      (q.regionId === undefined || r.regionId === q.regionId) &&
      (!model || r.gpuModel.toLowerCase() === model) &&
      (!keyword || r.hostName.toLowerCase().includes(keyword)),
  );
}

export type MarketRegion = MarketList['regions'][number];

/**
 * Filter choices: regions in SPEC order (the overseas ones last, SPEC.md §9), the most offered
 * GPU models first (capped). A model is offered only when a machine the market shows has it (one
 * idle GPU at least, SPEC.md §5): choosing a model of fully rented machines would only ever show
 * the empty state. `overseasRegions` (in their order) are offered even without a machine: that
 * is where the market says vast.ai is not configured (issue 14).
 */
export function filterOptions(rows: MarketRow[], overseasRegions: MarketRegion[] = []) {
  const domestic = new Map<number, MarketRegion>();
  const abroad = new Map<number, MarketRegion>(overseasRegions.map((r) => [r.id, r]));
  const models = new Map<string, number>();
  for (const r of rows) {
    const regions = r.overseas ? abroad : domestic;
    if (!regions.has(r.regionId))
      regions.set(r.regionId, { id: r.regionId, name: r.regionName, overseas: r.overseas });
    if (r.gpuIdleNum >= GPU_COUNT_MIN) models.set(r.gpuModel, (models.get(r.gpuModel) ?? 0) + r.gpuNum);
  }
  const gpuModels = [...models.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, MODEL_FILTER_CAP)
    .map(([m]) => m);
  // SPEC.md §9: with overseas packages the model filter offers B200 too.
  if (
    rows.some((r) => r.overseas && r.hostDriver === 'vastai') &&
    !gpuModels.includes(OVERSEAS_EXTRA_MODEL)
  ) {
    gpuModels.push(OVERSEAS_EXTRA_MODEL);
  }
  return { regions: [...domestic.values(), ...abroad.values()], gpuModels };
}

/** A SKU row as the market card of SPEC.md §3 (yuan per GPU-hour) with its discount. */
export function toMarketItem(
  r: MarketRow,
  ctx: {
    tenantId: number;
    now: Date;
    rules: DiscountRule[];
    billingType: MarketQuery['billingType'];
    packages: Map<string, PackagePrices>;
  },
): MarketItem {
  const local = r.hostDriver !== 'vastai';
  const rule = bestDiscount(
    ctx.rules,
    { tenantId: ctx.tenantId, regionId: r.regionId, gpuModel: r.gpuModel },
    ctx.now,
  );
  const d = toDiscountResult(r.hourlyPrice, rule);
  // The shared pricing function, so the card shows what create will charge.
  // Overseas offers are pay-as-you-go only (§9 duration 1): no package price.
  const pkg =
    ctx.billingType === 'hourly' || !local
      ? null
      : unitPrices(
          r.hourlyPrice,
          ctx.billingType,
          packagePricesOf(r, ctx.packages.get(packageKey(r.gpuModel, r.regionId))),
          rule?.rateBp,
        );
  return {
    id: r.id,
    skuGpuId: r.skuGpuId ?? skuGpuIdOf(r.id),
    gpuName: r.gpuModel,
    gpuBrand: r.gpuBrand,
    memoryGb: r.memoryGb,
    hostName: r.hostName,
    regionId: r.regionId,
    regionName: r.regionName,
    cpuPerGpu: r.cpuPerGpu,
    cpuInfo: r.cpuModel,
    systemDiskGb: r.systemDiskGb,
    dataDiskGb: r.dataDiskGb,
    gpuNum: r.gpuNum,
    gpuIdleNum: r.gpuIdleNum,
    // The exact configured price: what the subscribe screen prices with (the shared function rounds).
    price: unitsToYuan(r.hourlyPrice),
    docker: local,
    nvidiaDriver: r.nvidiaDriver,
    cudaVersion: r.cudaVersion,
    isLocalDocker: local,
    originalPrice: d.originalPrice,
    discountPrice: d.discountPrice,
    discountRate: d.discountRate,
    hasDiscount: d.hasDiscount,
    discountDescription: d.discountDescription,
    discountEndTime: d.endTime,
    packagePrice: pkg === null ? null : unitsToYuan(pkg.unitPrice),
    packageDiscountPrice: pkg === null ? null : unitsToYuan(pkg.discountedUnitPrice),
  };
}
