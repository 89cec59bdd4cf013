import type { TenantConfig } from '@gpu/shared/tenant';
import type { ThemeConfig } from 'antd';

/** The tenant's theme as antd tokens (SPEC.md §1: colorPrimary = theme.primaryColor). */
export function themeConfig(tenant: TenantConfig): ThemeConfig {
  const { primaryColor, backgroundColor } = tenant.theme;
  return {
    token: {
      colorPrimary: primaryColor,
      colorLink: primaryColor,
      colorInfo: primaryColor,
      borderRadius: 8,
      fontFamily: 'var(--app-font)', // styles/global.css
    },
    components: {
      Layout: { bodyBg: backgroundColor, headerBg: '#ffffff' },
    },
  };
}

/** Favicon and the CSS variables the plain stylesheets use (--tenant-*). */
export function applyTenantToDocument(tenant: TenantConfig, doc: Document = document) {
  const { theme } = tenant;
  const vars: Record<string, string> = {
    '--tenant-primary': theme.primaryColor,
    '--tenant-secondary': theme.secondaryColor,
    '--tenant-bg': theme.backgroundColor,
    '--tenant-gradient-start': theme.gradientStart,
    '--tenant-gradient-end': theme.gradientEnd,
  };
  for (const [name, value] of Object.entries(vars)) doc.documentElement.style.setProperty(name, value);

  let icon = doc.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!icon) {
    icon = doc.createElement('link');
    icon.rel = 'icon';
    doc.head.append(icon);
  }
  icon.href = tenant.faviconUrl || tenant.logoUrl || 'data:,';
}
