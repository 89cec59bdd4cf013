import type { TenantConfig } from './tenant.ts';

export const DEFAULT_PRIMARY_COLOR = '#200beb';

/** SPEC.md §1: what applies when the tenant config cannot be loaded. */
export const DEFAULT_TENANT_CONFIG: TenantConfig = {
  tenantId: 0,
  tenantCode: 'default',
  tenantName: '算力云平台',
  domain: 'localhost',
  logoUrl: '',
  logoDarkUrl: '',
  faviconUrl: '',
  theme: {
    primaryColor: DEFAULT_PRIMARY_COLOR,
    secondaryColor: '#7b61ff',
    backgroundColor: '#f5f6fb',
    gradientStart: '#200beb',
    gradientEnd: '#7b61ff',
  },
  homepage: {
    title: '高性价比 GPU 算力，即开即用',
    titleColor: '#ffffff',
    subtitle: '按分钟计费的 GPU 容器实例，秒级启动，随用随停',
    subtitleColor: 'rgba(255,255,255,0.85)',
    description: '',
    heroImage: '',
  },
  contact: { phone: '', email: '', supportUrl: '' },
  footer: { beianNumber: '', wechatOfficialQr: '', wechatServiceQr: '' },
  visibleRegionResources: [],
};
