import { DEFAULT_TENANT_CONFIG } from '@gpu/shared/tenant-defaults';
import { describe, expect, it } from 'vitest';
import { toTenantConfig } from './get-tenant-config';

describe('toTenantConfig', () => {
  it('keeps a full config as it is', () => {
    const full = { ...DEFAULT_TENANT_CONFIG, tenantName: '极光智算' };
    expect(toTenantConfig(JSON.parse(JSON.stringify(full)))).toEqual(full);
  });

  it('fills missing parts from the defaults', () => {
    const cfg = toTenantConfig({ tenantName: 'T', theme: { primaryColor: '#0a8f6c' }, homepage: null });
    expect(cfg?.theme).toEqual({ ...DEFAULT_TENANT_CONFIG.theme, primaryColor: '#0a8f6c' });
    expect(cfg?.homepage).toEqual(DEFAULT_TENANT_CONFIG.homepage);
    expect(cfg?.footer.beianNumber).toBe('');
  });

  it.each([null, 'x', [], { tenantName: 1, theme: {} }, { tenantName: 'T' }])('rejects %j', (data) => {
    expect(toTenantConfig(data)).toBeNull();
  });
});
