import { z } from 'zod';
import { EMBED_STATUSES } from './ai-navigation.ts';

const optionalUrl = z.string().max(2000).default('');

export const tenantThemeSchema = z.object({
  primaryColor: z.string(),
  secondaryColor: z.string(),
  backgroundColor: z.string(),
  gradientStart: z.string(),
  gradientEnd: z.string(),
});

export const tenantHomepageSchema = z.object({
  title: z.string(),
  titleColor: z.string(),
  subtitle: z.string(),
  subtitleColor: z.string(),
  description: z.string(),
  heroImage: optionalUrl,
});

export const tenantContactSchema = z.object({
  phone: z.string().default(''),
  email: z.string().default(''),
  supportUrl: z.string().default(''),
});

export const tenantFooterSchema = z.object({
  beianNumber: z.string().default(''),
  wechatOfficialQr: optionalUrl,
  wechatServiceQr: optionalUrl,
});

/** The tenant config of SPEC.md §3, as `GET /api/tenant/config` answers it. */
export const tenantConfigSchema = z.object({
  tenantId: z.number().int(),
  tenantCode: z.string(),
  tenantName: z.string(),
  domain: z.string(),
  logoUrl: optionalUrl,
  logoDarkUrl: optionalUrl,
  faviconUrl: optionalUrl,
  theme: tenantThemeSchema,
  homepage: tenantHomepageSchema,
  contact: tenantContactSchema,
  footer: tenantFooterSchema,
  /** Region ids whose resources this tenant shows; empty means all regions. */
  visibleRegionResources: z.array(z.number().int()),
  /** The page /ai-navigation embeds; absent means the platform default. */
  aiNavigationUrl: z.string().max(2000).optional(),
});
export type TenantConfig = z.infer<typeof tenantConfigSchema>;

export const tenantListItemSchema = z.object({
  tenantId: z.number().int(),
  tenantCode: z.string(),
  tenantName: z.string(),
  domain: z.string(),
});
export type TenantListItem = z.infer<typeof tenantListItemSchema>;

/** `GET /api/tenant/ai-navigation`: the tenant's page and whether it can show in our frame. */
export const aiNavigationSchema = z.object({
  url: z.string(),
  embed: z.enum(EMBED_STATUSES),
});
