import {
  type BillingType,
  computeOrderPrice,
  GPU_COUNT_MAX,
  type OrderPrice,
  type PackagePrices,
} from '@gpu/shared';
import type { Now } from '../../platform/clock.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { bestDiscount, type DiscountRule } from '../discounts/index.ts';
import { createMarketRepository, type MarketRow, packagePricesOf, scopeOf } from '../market/index.ts';
import type { TenantRecord } from '../tenants/index.ts';
import { previewDeduction } from '../vouchers/index.ts';
import { pricingErrors } from './pricing.errors.ts';
import { createPricingRepository } from './pricing.repository.ts';

export interface Quote extends OrderPrice {
  row: MarketRow;
  billingType: BillingType;
  duration: number;
  gpuAmount: number;
  discount: DiscountRule | null;
}

export async function packagePricesFor(db: DbOrTx, gpuType: string, regionId: number, platform = 'local') {
  const p = await createPricingRepository({ db }).find(gpuType, regionId, platform);
  return p
    ? ({ daily: p.dailyPrice, weekly: p.weeklyPrice, monthly: p.monthlyPrice } satisfies PackagePrices)
    : null;
}

export interface OrderInput {
  machineId: number;
  billingType: BillingType;
  duration: number;
  gpuAmount: number;
  voucherRemaining?: number | null;
}

/**
 * The server's price for an order, from fresh rows (never the market cache and never the
 * client's figures): tenant price, active discount now, package price, voucher balance.
 */
export async function quoteOrder(
  deps: { db: DbOrTx; now: Now; rules: DiscountRule[] },
  tenant: TenantRecord,
  input: OrderInput,
): Promise<Quote> {
  const [row] = await createMarketRepository({ db: deps.db }).listForTenant(scopeOf(tenant), [
    input.machineId,
  ]);
  if (!row) throw pricingErrors.machineNotFound();
  const platformPrices =
    input.billingType === 'hourly' ? null : await packagePricesFor(deps.db, row.gpuModel, row.regionId);
  return quoteOfRow(deps, tenant, input, row, platformPrices);
}

/**
 * `quoteOrder` on a row already read (a create reads it with its host lock): the machine's idle
 * GPUs checked, the tenant's discount now and the package price applied.
 */
export function quoteOfRow(
  deps: { now: Now; rules: DiscountRule[] },
  tenant: TenantRecord,
  input: OrderInput,
  row: MarketRow,
  platformPrices: PackagePrices | null,
): Quote {
  const maxGpus = Math.min(row.gpuIdleNum, GPU_COUNT_MAX);
  if (input.gpuAmount > maxGpus) throw pricingErrors.notEnoughIdle(row.gpuIdleNum);
  const discount = bestDiscount(
    deps.rules,
    { tenantId: tenant.id, regionId: row.regionId, gpuModel: row.gpuModel },
    deps.now(),
  );
  const price = computeOrderPrice({
    hourlyPrice: row.hourlyPrice,
    billingType: input.billingType,
    duration: input.duration,
    gpuAmount: input.gpuAmount,
    packagePrices: input.billingType === 'hourly' ? null : packagePricesOf(row, platformPrices),
    discountRateBp: discount?.rateBp ?? null,
    voucherRemaining: input.voucherRemaining ?? null,
  });
  return {
    ...price,
    row,
    billingType: input.billingType,
    duration: input.duration,
    gpuAmount: input.gpuAmount,
    discount,
  };
}

/** What the voucher can pay of this order: its amount after discount, before the voucher. */
export const voucherOrderOf = (q: Quote) => ({
  regionId: q.row.regionId,
  gpuType: q.row.gpuModel,
  amount: q.originalAmount - q.discountAmount,
});

/**
 * calculate-price: the quote with the user's voucher applied, read without locks (create takes
 * it for real under the voucher's row lock). A voucher that cannot pay answers why (422).
 */
export async function quoteWithVoucher(
  deps: { db: DbOrTx; now: Now; rules: DiscountRule[] },
  tenant: TenantRecord,
  input: { machineId: number; billingType: BillingType; duration: number; gpuAmount: number },
  voucher: { userId: number; voucherId: number } | null,
): Promise<Quote> {
  const q = await quoteOrder(deps, tenant, input);
  if (!voucher) return q;
  const deduction = await previewDeduction(deps, voucher.userId, voucher.voucherId, voucherOrderOf(q));
  return { ...q, voucherDeduction: deduction, payableAmount: q.payableAmount - deduction };
}

/** Every package price, or those of one GPU type. */
export function listPackagePrices({ db }: { db: DbOrTx }, gpuType?: string) {
  const repo = createPricingRepository({ db });
  return gpuType === undefined ? repo.all() : repo.byGpuType(gpuType);
}
