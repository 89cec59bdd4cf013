import type { TenantConfig } from '@gpu/shared/tenant';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { applyTenantToDocument } from './theme';

interface TenantState {
  tenant: TenantConfig;
  setTenant: (tenant: TenantConfig) => void;
}

const TenantContext = createContext<TenantState | null>(null);

/** Holds the tenant config loaded at start-up; the dev switcher may replace it. */
export function TenantProvider({ initial, children }: { initial: TenantConfig; children: ReactNode }) {
  const [tenant, setTenant] = useState(initial);
  useEffect(() => applyTenantToDocument(tenant), [tenant]);
  const value = useMemo(() => ({ tenant, setTenant }), [tenant]);
  return <TenantContext value={value}>{children}</TenantContext>;
}

function useTenantState(): TenantState {
  const state = useContext(TenantContext);
  if (!state) throw new Error('useTenant outside TenantProvider');
  return state;
}

export const useTenant = (): TenantConfig => useTenantState().tenant;
export const useSetTenant = () => useTenantState().setTenant;
