import type { TenantUpdateInput } from '@gpu/shared';
import { tenantAdminErrors } from './tenant-admin.errors.ts';
import type { TenantRow } from './tenant-admin.repository.ts';

/**
 * What a tenant operator may not change of its tenant: how the platform routes and runs it. The
 * form sends the whole tenant, so an unchanged value passes; the visible regions (a defaulted
 * field, so a form without it cannot be told from one clearing it) always stay as they are.
 */
export function checkOperatorInput(before: TenantRow, domainsBefore: string[], input: TenantUpdateInput) {
  const sameDomains =
    !input.domains ||
    (input.domains.length === domainsBefore.length && input.domains.every((d) => domainsBefore.includes(d)));
  const changed =
    (input.code !== undefined && input.code !== before.code) ||
    (input.status !== undefined && input.status !== before.status) ||
    !sameDomains;
  if (changed) throw tenantAdminErrors.operatorBrandingOnly();
  if (!input.config) return input;
  return {
    ...input,
    config: { ...input.config, visibleRegionResources: before.config.visibleRegionResources ?? [] },
  };
}
