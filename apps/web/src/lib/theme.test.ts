import { DEFAULT_TENANT_CONFIG } from '@gpu/shared/tenant-defaults';
import { describe, expect, it } from 'vitest';
import { applyTenantToDocument, themeConfig } from './theme';

const tenant = {
  ...DEFAULT_TENANT_CONFIG,
  faviconUrl: '/demo/logo-aurora.svg',
  theme: { ...DEFAULT_TENANT_CONFIG.theme, primaryColor: '#0a8f6c', gradientStart: '#064e3b' },
};

describe('tenant theme', () => {
  it('maps the primary colour onto the antd token', () => {
    expect(themeConfig(tenant).token?.colorPrimary).toBe('#0a8f6c');
    expect(themeConfig(DEFAULT_TENANT_CONFIG).token?.colorPrimary).toBe('#200beb');
  });

  it('sets the favicon and the CSS variables', () => {
    applyTenantToDocument(tenant);
    const icons = document.querySelectorAll<HTMLLinkElement>('link[rel="icon"]');
    expect(icons).toHaveLength(1);
    expect(icons[0]?.getAttribute('href')).toBe('/demo/logo-aurora.svg');
    expect(document.documentElement.style.getPropertyValue('--tenant-primary')).toBe('#0a8f6c');
    expect(document.documentElement.style.getPropertyValue('--tenant-gradient-start')).toBe('#064e3b');
    applyTenantToDocument({ ...tenant, faviconUrl: '' });
    expect(document.querySelectorAll('link[rel="icon"]')).toHaveLength(1);
  });
});
