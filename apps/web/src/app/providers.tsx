import type { TenantConfig } from '@gpu/shared/tenant';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider, type ThemeConfig } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { type ReactNode, useLayoutEffect, useMemo, useState } from 'react';
import { TenantProvider, useTenant } from '../features/tenant/tenant-context';
import { themeConfig } from '../lib/theme';

dayjs.locale('zh-cn');

// No space between two Chinese characters in buttons (antd inserts one by default).
const BUTTON = { autoInsertSpace: false };

function ThemeRoot({ theme, children }: { theme: ThemeConfig; children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={theme} button={BUTTON}>
      {children}
    </ConfigProvider>
  );
}

function TenantTheme({ children }: { children: ReactNode }) {
  const tenant = useTenant();
  const theme = useMemo(() => themeConfig(tenant), [tenant]);
  // Toasts and dialogs (lib/feedback.ts) render outside this tree; give them the same theme.
  useLayoutEffect(() => {
    ConfigProvider.config({ holderRender: (holder) => <ThemeRoot theme={theme}>{holder}</ThemeRoot> });
  }, [theme]);
  return <ThemeRoot theme={theme}>{children}</ThemeRoot>;
}

/** Query cache, tenant config and the antd theme built from it. */
export function AppProviders({ tenant, children }: { tenant: TenantConfig; children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
      }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TenantProvider initial={tenant}>
        <TenantTheme>{children}</TenantTheme>
      </TenantProvider>
    </QueryClientProvider>
  );
}
