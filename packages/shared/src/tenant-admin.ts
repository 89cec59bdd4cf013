import { z } from 'zod';
import { priceYuanSchema } from './catalogue.ts';
import { textSchema } from './input.ts';

/** Tenants as the back office edits them (SPEC.md §1, §3 tenant config). */

const line = (max: number, what: string) =>
  textSchema(`${what}必须是文本`).trim().max(max, `${what}最多 ${max} 个字符`);
/** #RGB, #RRGGBB, #RRGGBBAA or rgb()/rgba(): what CSS takes and the demo tenants use. */
const COLOR =
  /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$|^rgba?\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*(,\s*(0|1|0?\.\d+)\s*)?\)$/;
const color = (what: string) =>
  z
    .string({ message: `${what}必须是文本` })
    .trim()
    .regex(COLOR, `${what}应为 #RRGGBB 或 rgba() 格式`);
/** An uploaded file (/api/files/…) or another path of this site, an http(s) URL, or empty. */
const imageUrl = (what: string) =>
  line(500, what)
    .refine(
      (v) => v === '' || /^\/(?!\/)[A-Za-z0-9/_.-]+$/.test(v) || /^https?:\/\/\S+$/.test(v),
      `${what}应为上传的图片或 http(s) 地址`,
    )
    .default('');
export const TENANT_HOST_PATTERN =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

export const tenantSettingsInputSchema = z.object({
  logoUrl: imageUrl('Logo'),
  logoDarkUrl: imageUrl('深色 Logo'),
  faviconUrl: imageUrl('网站图标'),
  theme: z.object({
    primaryColor: color('主色'),
    secondaryColor: color('辅助色'),
    backgroundColor: color('背景色'),
    gradientStart: color('渐变起始色'),
    gradientEnd: color('渐变结束色'),
  }),
  homepage: z.object({
    title: line(100, '首页标题').min(1, '请填写首页标题'),
    titleColor: color('标题颜色'),
    subtitle: line(200, '首页副标题').default(''),
    subtitleColor: color('副标题颜色'),
    description: line(500, '首页描述').default(''),
    heroImage: imageUrl('首页大图'),
  }),
  contact: z.object({
    phone: line(32, '联系电话').default(''),
    email: z.union([z.literal(''), z.email('联系邮箱格式不正确').max(100)]).default(''),
    supportUrl: line(300, '客服链接').default(''),
  }),
  footer: z.object({
    beianNumber: line(64, '备案号').default(''),
    wechatOfficialQr: imageUrl('公众号二维码'),
    wechatServiceQr: imageUrl('客服二维码'),
  }),
  visibleRegionResources: z
    .array(z.number({ message: '地区编号必须是数字' }).int('地区编号必须是整数').min(1, '地区编号无效'))
    .max(200, '可见地区最多 200 个')
    .default([]),
  /** The bare-metal enquiry form's products (issue 13); empty means the platform's default list. */
  enquiryProducts: z
    .array(line(40, '咨询产品').min(1, '咨询产品不能为空'))
    .max(20, '咨询产品最多 20 个')
    .refine((p) => new Set(p).size === p.length, '咨询产品不能重复')
    .optional(),
  /** The page /ai-navigation embeds; empty means the platform default. */
  aiNavigationUrl: line(2000, 'AI导航地址')
    .refine((v) => v === '' || /^https?:\/\/\S+$/.test(v), 'AI导航地址应为 http(s) 地址')
    .optional(),
});

/** A tenant code: the server's check and the admin form's (one rule). */
export const TENANT_CODE_RULE = {
  pattern: /^[a-z0-9][a-z0-9-]{0,31}$/,
  message: '租户编码为小写字母、数字或连字符',
} as const;

const tenantFields = {
  code: line(32, '租户编码').regex(TENANT_CODE_RULE.pattern, TENANT_CODE_RULE.message),
  name: line(64, '租户名称').min(1, '请填写租户名称'),
  status: z.enum(['ACTIVE', 'DISABLED'], { message: '状态只能是 ACTIVE 或 DISABLED' }),
  domains: z
    .array(
      z
        .string({ message: '域名必须是文本' })
        .trim()
        .toLowerCase()
        .regex(TENANT_HOST_PATTERN, '域名格式不正确（如 gpu.example.com，不含端口）'),
    )
    .max(20, '域名最多 20 个')
    .refine((d) => new Set(d).size === d.length, '域名不能重复'),
  config: tenantSettingsInputSchema,
};
export const tenantCreateSchema = z.object({
  ...tenantFields,
  status: tenantFields.status.default('ACTIVE'),
  domains: tenantFields.domains.default([]),
});
export type TenantCreateInput = z.infer<typeof tenantCreateSchema>;
export const tenantUpdateSchema = z.object(tenantFields).partial().strict();
export type TenantUpdateInput = z.infer<typeof tenantUpdateSchema>;

export const adminTenantSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  status: z.string(),
  isDefault: z.boolean(),
  domains: z.array(z.string()),
  config: z.record(z.string(), z.unknown()),
  hostCount: z.number().int(),
  priceCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdminTenant = z.infer<typeof adminTenantSchema>;

export const tenantHostsInputSchema = z.object({
  hostIds: z
    .array(z.number({ message: '主机编号必须是数字' }).int('主机编号必须是整数').min(1, '主机编号无效'))
    .max(10_000)
    .refine((d) => new Set(d).size === d.length, '主机不能重复'),
});
export const tenantHostsSchema = z.object({ tenantId: z.number().int(), hostIds: z.array(z.number().int()) });

/** A tenant's own price for a SKU; null package prices fall back to the platform's. */
export const tenantPriceInputSchema = z.object({
  hourlyPrice: priceYuanSchema,
  dailyPrice: priceYuanSchema.nullable().default(null),
  weeklyPrice: priceYuanSchema.nullable().default(null),
  monthlyPrice: priceYuanSchema.nullable().default(null),
});
export type TenantPriceInput = z.infer<typeof tenantPriceInputSchema>;

export const tenantPriceRowSchema = z.object({
  skuId: z.number().int(),
  hostId: z.number().int(),
  hostName: z.string(),
  regionName: z.string(),
  gpuModel: z.string(),
  /** The platform's price (yuan per GPU-hour). */
  basePrice: z.number(),
  hourlyPrice: z.number().nullable(),
  dailyPrice: z.number().nullable(),
  weeklyPrice: z.number().nullable(),
  monthlyPrice: z.number().nullable(),
});
export type TenantPriceRow = z.infer<typeof tenantPriceRowSchema>;

/** Image uploads: what the tenant screens may store (logo, favicon, QR codes). */
export const UPLOAD_MAX_BYTES = 512 * 1024;
export const UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/x-icon'] as const;
export const uploadInputSchema = z.object({
  dataUrl: z
    .string({ message: '请选择图片' })
    .max(Math.ceil((UPLOAD_MAX_BYTES * 4) / 3) + 100, '图片不能超过 512 KB')
    .regex(
      /^data:image\/(png|jpeg|webp|gif|x-icon);base64,[A-Za-z0-9+/]+=*$/,
      '只支持 PNG、JPEG、WebP、GIF 或 ICO 图片',
    ),
});
export const uploadResultSchema = z.object({
  url: z.string(),
  contentType: z.string(),
  size: z.number().int(),
});
