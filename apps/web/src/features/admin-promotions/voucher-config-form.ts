import type { VoucherConfigView } from '@gpu/shared/vouchers';
import type { Dayjs } from 'dayjs';
import { pickerDayEnd, toPicker } from '../../components/admin/platform-picker';

/** The voucher config form's fields (/admin/voucher-config). */
export interface ConfigFormValues {
  name?: string;
  description?: string;
  faceAmount?: number;
  validDays?: number | null;
  validUntil?: Dayjs | null;
  regionId?: number;
  gpuType?: string;
  minOrderAmount?: number;
  perUserLimit?: number;
  enabled?: boolean;
}

/** A config as the form's values; its 截止日期 is the Shanghai day the table shows. */
export const configFormValues = (row: VoucherConfigView): ConfigFormValues => ({
  ...row,
  regionId: row.regionId ?? undefined,
  gpuType: row.gpuType ?? undefined,
  validUntil: row.validUntil ? toPicker(row.validUntil) : null,
});

/**
 * The form's values as the input voucherConfigInputSchema checks. 截止日期 means the end of that
 * day in platform time (Asia/Shanghai), whatever the browser's zone.
 */
export const configInput = (v: ConfigFormValues) => ({
  name: v.name ?? '',
  description: v.description ?? '',
  faceAmount: v.faceAmount,
  validDays: v.validDays ?? null,
  validUntil: v.validUntil ? pickerDayEnd(v.validUntil) : null,
  regionId: v.regionId ?? null,
  gpuType: v.gpuType ?? null,
  minOrderAmount: v.minOrderAmount ?? 0,
  perUserLimit: v.perUserLimit ?? 1,
  enabled: v.enabled ?? true,
});
