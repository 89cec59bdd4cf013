import { z } from 'zod';
import { idSchema, textSchema } from './input.ts';

/** Bare-metal enquiry (SPEC.md §3, §5, §8): the rules and messages both the form and the server apply. */
export const enquiryMessages = {
  nameRequired: '请输入联系人',
  phoneRequired: '请输入联系电话',
  phoneInvalid: '请输入有效的电话',
  productRequired: '请选择咨询产品',
  quantityRequired: '请输入数量',
  quantityRange: '数量必须在1-100之间',
  success: '咨询提交成功，我们会尽快联系您！',
  failure: '提交失败，请稍后重试',
} as const;

export const ENQUIRY_QUANTITY_MIN = 1;
export const ENQUIRY_QUANTITY_MAX = 100;
export const ENQUIRY_QUANTITY_DEFAULT = 1;
/** Optional plus, a digit, then 5-20 digits, dashes or spaces (landlines and foreign numbers too). */
export const ENQUIRY_PHONE_PATTERN = /^\+?\d[\d\- ]{5,20}$/;

const requiredText = (message: string, max: number) =>
  textSchema(message).trim().min(1, message).max(max, `${message}（最多${max}个字符）`);
const optionalText = (max: number, label: string) =>
  textSchema()
    .trim()
    .max(max, `${label}最多${max}个字符`)
    .optional()
    .transform((v) => v || undefined);

/** The quantity: a whole number 1-100; empty is "required", a decimal or out of range is "range". */
export const enquiryQuantitySchema = z.preprocess(
  (v) =>
    v === '' || v === null ? undefined : typeof v === 'string' && /^\d{1,6}$/.test(v.trim()) ? Number(v) : v,
  z
    .number({ message: enquiryMessages.quantityRequired })
    .int(enquiryMessages.quantityRange)
    .min(ENQUIRY_QUANTITY_MIN, enquiryMessages.quantityRange)
    .max(ENQUIRY_QUANTITY_MAX, enquiryMessages.quantityRange),
);

export const enquiryRequestSchema = z.object({
  name: requiredText(enquiryMessages.nameRequired, 50),
  phone: textSchema(enquiryMessages.phoneRequired)
    .trim()
    .min(1, enquiryMessages.phoneRequired)
    .regex(ENQUIRY_PHONE_PATTERN, enquiryMessages.phoneInvalid),
  company: optionalText(100, '公司名称'),
  product: requiredText(enquiryMessages.productRequired, 100),
  quantity: enquiryQuantitySchema,
  question: optionalText(1000, '咨询内容'),
});
export type EnquiryRequest = z.infer<typeof enquiryRequestSchema>;
export type EnquiryInput = z.input<typeof enquiryRequestSchema>;

/** The first message of each field that breaks a rule, for forms (field name to message). */
export function enquiryFieldErrors(input: unknown): Partial<Record<keyof EnquiryRequest, string>> {
  const r = enquiryRequestSchema.safeParse(input);
  if (r.success) return {};
  const out: Partial<Record<keyof EnquiryRequest, string>> = {};
  for (const issue of r.error.issues) {
    const key = issue.path[0] as keyof EnquiryRequest;
    out[key] ??= issue.message;
  }
  return out;
}

/** Products offered when the tenant configures none. */
export const DEFAULT_ENQUIRY_PRODUCTS = [
  'GPU裸金属服务器',
  '硬件销售与集成',
  '算力中心建设',
  '算力运营管理',
] as const;

export const ENQUIRY_STATUSES = ['NEW', 'HANDLED'] as const;
export type EnquiryStatus = (typeof ENQUIRY_STATUSES)[number];

/** One enquiry as the back office lists it. */
export const enquirySchema = z.object({
  id: z.number().int(),
  tenantId: z.number().int(),
  name: z.string(),
  phone: z.string(),
  company: z.string().nullable(),
  product: z.string(),
  quantity: z.number().int(),
  question: z.string().nullable(),
  status: z.enum(ENQUIRY_STATUSES),
  ip: z.string().nullable(),
  createdAt: z.string(),
  handledAt: z.string().nullable(),
  handledNote: z.string().nullable(),
});
export type Enquiry = z.infer<typeof enquirySchema>;

export const enquiryListQuerySchema = z.object({
  page: z.coerce.number().int().min(1, '页码无效').max(100_000, '页码无效').default(1),
  size: z.coerce.number().int().min(1, '每页条数无效').max(200, '每页最多200条').default(20),
  status: z.enum(ENQUIRY_STATUSES, { message: '状态无效' }).optional(),
  tenantId: idSchema('租户编号无效').optional(),
  /** Matches name, phone or company. */
  keyword: textSchema().trim().max(64, '关键词过长').optional(),
});
export type EnquiryListQuery = z.infer<typeof enquiryListQuerySchema>;

export const enquiryHandleSchema = z.object({
  note: optionalText(500, '处理备注'),
});
