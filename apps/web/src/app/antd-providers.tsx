import { ConfigProvider, type ThemeConfig } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { type ReactNode, useLayoutEffect, useMemo } from 'react';
import { useTenant } from '../lib/tenant-context';
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

/**
 * antd's locale and the tenant's theme for the part of the page that uses antd. A separate
 * chunk (AntdScope.tsx): the homepage never loads it.
 */
export default function AntdProviders({ children }: { children: ReactNode }) {
  const tenant = useTenant();
  const theme = useMemo(() => themeConfig(tenant), [tenant]);
  // Toasts and dialogs (lib/feedback.ts) render outside this tree; give them the same theme.
  useLayoutEffect(() => {
    ConfigProvider.config({ holderRender: (holder) => <ThemeRoot theme={theme}>{holder}</ThemeRoot> });
  }, [theme]);
  return <ThemeRoot theme={theme}>{children}</ThemeRoot>;
}
