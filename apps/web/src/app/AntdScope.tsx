import { lazy, type ReactNode, Suspense } from 'react';

const AntdProviders = lazy(() => import('./antd-providers'));

/**
 * Renders its children inside antd's ConfigProvider (locale, tenant theme), loading antd first.
 * Everything that uses antd sits inside one: every page and layout but the homepage and the
 * public layout's top navigation and footer, which are plain React and CSS modules, so `/` does
 * not wait for antd.
 */
export function AntdScope({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  return (
    <Suspense fallback={fallback}>
      <AntdProviders>{children}</AntdProviders>
    </Suspense>
  );
}
