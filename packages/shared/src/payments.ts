import { z } from 'zod';
import { RECHARGE_MAX, RECHARGE_MIN } from './constants.ts';
import { dateOrTimeSchema } from './input.ts';
import { RECHARGE_ORDER_STATUSES } from './labels.ts';
import { formatMoney } from './money.ts';

/** Recharge (SPEC.md §3, §4, §5, §7): the rules and messages both the form and the server apply. */
export const rechargeMessages = {
  amountInvalid: '请输入有效的充值金额',
  amountMin: `充值金额不能少于${RECHARGE_MIN}元`,
  amountMax: `充值金额不能超过${RECHARGE_MAX}元`,
  amountInteger: '充值金额必须为整数',
  typeInvalid: '请选择支付方式',
} as const;

export const PAYMENT_TYPES = ['alipay'] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];

/** What `GET /api/pay/status` answers in `data`. */
export const PAYMENT_STATUSES = ['SUCCESS', 'FAIL', 'PENDING'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * SPEC.md §3's request defaults. The server does not pass a client's subject or body on to the
 * provider: it builds them with rechargeSubject / rechargeBody.
 */
export const DEFAULT_RECHARGE_SUBJECT = '测试商品';
export const DEFAULT_RECHARGE_BODY = '测试商品描述';

/** Alipay's subject limit is 256 characters; ours stays well inside it. */
const SUBJECT_MAX = 128;

/**
 * What the customer's Alipay bill (and the simulated payment page) shows for a recharge:
 * "{tenant} 账户充值 ¥1,000.00".
 */
export function rechargeSubject(tenantName: string, amountYuan: number): string {
  const amount = ` 账户充值 ${formatMoney(amountYuan)}`;
  return `${tenantName.trim().slice(0, SUBJECT_MAX - amount.length)}${amount}`;
}

/** The order's description at the provider: "{tenant} 账户余额充值". */
export const rechargeBody = (tenantName: string): string =>
  `${tenantName.trim().slice(0, SUBJECT_MAX - 7)} 账户余额充值`;

/** A text field or query value becomes a number when it is decimal digits; anything else stays as is and fails. */
const numberFromText = (v: unknown) => {
  if (typeof v !== 'string') return v;
  const s = v.trim();
  return /^\d{1,15}(\.\d{1,15})?$/.test(s) ? Number(s) : v;
};

/**
 * The custom amount rule of SPEC.md §5, checked in this order: a number, at least 100, at most
 * 100000, an integer (yuan). JSON bodies carry a number (SPEC §7), never a string like "1e2".
 */
export const rechargeAmountSchema = z
  .number({ message: rechargeMessages.amountInvalid })
  .min(RECHARGE_MIN, rechargeMessages.amountMin)
  .max(RECHARGE_MAX, rechargeMessages.amountMax)
  .int(rechargeMessages.amountInteger);

/** The same rule for text: a form field or a query string (`?amount=500`), decimal digits only. */
export const rechargeAmountTextSchema = z.preprocess(numberFromText, rechargeAmountSchema);

/** The first message the amount rule gives, or null when the amount is fine (for forms). */
export function rechargeAmountError(value: unknown): string | null {
  const r = rechargeAmountTextSchema.safeParse(value);
  return r.success ? null : (r.error.issues[0]?.message ?? rechargeMessages.amountInvalid);
}

/** The amount field takes digits only (SPEC.md §5): everything else is dropped, and leading zeros. */
export function sanitizeRechargeInput(raw: string): string {
  return raw
    .replace(/\D+/g, '')
    .replace(/^0+(?=\d)/, '')
    .slice(0, 9);
}

/** Keys the amount field lets through: digits and control keys (editing, moving, shortcuts). */
export function isRechargeInputKey(key: string, withModifier = false): boolean {
  if (withModifier || /^\d$/.test(key)) return true;
  return [
    'Backspace',
    'Delete',
    'Tab',
    'Enter',
    'Escape',
    'ArrowLeft',
    'ArrowRight',
    'ArrowUp',
    'ArrowDown',
    'Home',
    'End',
  ].includes(key);
}

/** `POST /api/pay/createQrCode`. */
export const createQrCodeRequestSchema = z.object({
  amount: rechargeAmountSchema,
  subject: z.string().trim().max(128, '商品标题不能超过128个字符').default(DEFAULT_RECHARGE_SUBJECT),
  body: z.string().trim().max(128, '商品描述不能超过128个字符').default(DEFAULT_RECHARGE_BODY),
  type: z.enum(PAYMENT_TYPES, { message: rechargeMessages.typeInvalid }).default('alipay'),
});
export type CreateQrCodeRequest = z.input<typeof createQrCodeRequestSchema>;

/**
 * `POST /api/user/recharge?amount=` (SPEC.md §7): the same order as createQrCode from a query
 * amount, which must be whole yuan written in decimal digits (no sign, point or exponent).
 */
export const userRechargeQuerySchema = z.object({
  amount: z
    .string({ message: rechargeMessages.amountInvalid })
    .regex(/^\d{1,9}$/, rechargeMessages.amountInteger)
    .transform(Number)
    .pipe(rechargeAmountSchema),
});

export const qrCodeSchema = z.object({ qrCode: z.string(), orderNo: z.string() });
export type QrCode = z.infer<typeof qrCodeSchema>;

/** The payment calls answer the standard envelope plus `msg` (SPEC.md §7), equal to `message`. */
export const paymentEnvelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.boolean(), code: z.string(), message: z.string(), msg: z.string(), data });

export const createQrCodeResponseSchema = paymentEnvelopeSchema(qrCodeSchema);

/** `GET /api/pay/status?outTradeNo=`. */
export const paymentStatusQuerySchema = z.object({
  outTradeNo: z
    .string({ message: '请提供订单号' })
    .trim()
    .min(1, '请提供订单号')
    .max(64, '订单号无效')
    .regex(/^[A-Za-z0-9_]+$/, '订单号无效'),
});
export const paymentStatusResponseSchema = paymentEnvelopeSchema(z.enum(PAYMENT_STATUSES));

/** One recharge order as the console lists it; money in yuan, times ISO 8601. */
export const rechargeOrderSchema = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  amount: z.number(),
  status: z.enum(RECHARGE_ORDER_STATUSES),
  paymentType: z.enum(PAYMENT_TYPES),
  provider: z.string(),
  subject: z.string(),
  body: z.string(),
  providerTradeNo: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  paidAt: z.string().nullable(),
  closedAt: z.string().nullable(),
});
export type RechargeOrder = z.infer<typeof rechargeOrderSchema>;

/** `GET /api/recharge/orders`: 1-based pages; dates are inclusive. */
export const rechargeOrderQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(100).default(10),
  status: z.enum(RECHARGE_ORDER_STATUSES, { message: '订单状态无效' }).optional(),
  /** A day (China time) or an ISO 8601 time with offset. */
  startDate: dateOrTimeSchema.optional(),
  endDate: dateOrTimeSchema.optional(),
});
export type RechargeOrderQuery = z.infer<typeof rechargeOrderQuerySchema>;

/** Money is kept in 0.0001 yuan (DESIGN §4); a finer amount is refused rather than rounded. */
const hasAtMostFourDecimals = (v: number) => Math.abs(v * 10_000 - Math.round(v * 10_000)) < 1e-6;

/** `GET /api/user/balance/check?amount=` (yuan). */
export const balanceCheckQuerySchema = z.object({
  amount: z.preprocess(
    numberFromText,
    z
      .number({ message: '请输入有效的金额' })
      .min(0, '金额不能为负数')
      .max(1e9, '金额过大')
      .refine(hasAtMostFourDecimals, '金额最多保留4位小数'),
  ),
});
export const balanceCheckSchema = z.object({
  sufficient: z.boolean(),
  available: z.number(),
  required: z.number(),
});
export type BalanceCheck = z.infer<typeof balanceCheckSchema>;

/** `POST /api/admin/users/{id}/balance-adjustment`: a signed amount in yuan and a reason. */
export const balanceAdjustmentRequestSchema = z.object({
  amount: z
    .number({ message: '请输入调整金额' })
    .refine((v) => v !== 0, '调整金额不能为0')
    .refine((v) => Math.abs(v) <= 1_000_000, '单次调整金额不能超过1000000元')
    .refine(hasAtMostFourDecimals, '金额最多保留4位小数'),
  reason: z
    .string({ message: '请填写调整原因' })
    .trim()
    .min(1, '请填写调整原因')
    .max(200, '调整原因不能超过200个字符'),
  /** Makes a retried request count once. */
  requestId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{8,64}$/, '请求编号无效')
    .optional(),
});
export type BalanceAdjustmentRequest = z.infer<typeof balanceAdjustmentRequestSchema>;
