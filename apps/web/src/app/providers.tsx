import type { TenantConfig } from '@gpu/shared/tenant';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { TenantProvider } from '../lib/tenant-context';

/** Query cache and tenant config. antd's ConfigProvider is per page (AntdScope.tsx). */
export function AppProviders({ tenant, children }: { tenant: TenantConfig; children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
      }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TenantProvider initial={tenant}>{children}</TenantProvider>
    </QueryClientProvider>
  );
}
