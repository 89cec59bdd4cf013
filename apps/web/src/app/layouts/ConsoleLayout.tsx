import { Layout, Menu } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { PageLoading } from '../../components/PageLoading';
import styles from './ConsoleLayout.module.css';
import { ConsoleTabBar } from './ConsoleTabBar';
import { CONSOLE_MENU } from './console-menu';
import { TopNav } from './TopNav';

// Its own chunk: the layout stays light (the watcher polls only after an order).
const CreationWatcher = lazy(() =>
  import('../../features/instances').then((m) => ({ default: m.CreationWatcher })),
);

// Phones only, on the first tap of ☰: antd's Drawer stays out of the layout's chunk.
const ConsoleDrawer = lazy(() => import('./ConsoleDrawer'));

const COLLAPSED_KEY = 'gpu.console.collapsed';

/**
 * Top navigation, the collapsible sider and the page. On phones (< 768 px) the sider gives way
 * to a drawer opened by the top bar's ☰ (the console's pages, labelled) and a bottom tab bar:
 * a permanent rail there left the page about 150 px wide.
 */
export default function ConsoleLayout() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [collapsed, setCollapsed] = useState(() => window.localStorage.getItem(COLLAPSED_KEY) === '1');
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [drawerLoaded, setDrawerLoaded] = useState(false);
  // The trigger's choice is remembered; the automatic collapse on narrow screens is not.
  const onCollapse = (value: boolean, type: 'clickTrigger' | 'responsive') => {
    setCollapsed(value);
    if (type === 'clickTrigger') window.localStorage.setItem(COLLAPSED_KEY, value ? '1' : '0');
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: closes when the location changes
  useEffect(() => setDrawerOpen(false), [pathname]);

  return (
    <Layout className={styles.layout}>
      <TopNav
        wide
        menu={{
          open: drawerOpen,
          onOpen: () => {
            setDrawerLoaded(true);
            setDrawerOpen(true);
          },
        }}
      />
      {/* Orders placed on the subscribe page end here: RUNNING (billing starts) or failed. */}
      <Suspense fallback={null}>
        <CreationWatcher />
      </Suspense>
      <Layout hasSider>
        <Layout.Sider
          collapsible
          collapsed={collapsed}
          onCollapse={onCollapse}
          breakpoint="lg"
          width={220}
          collapsedWidth={64}
          theme="light"
          className={styles.sider}
        >
          <Menu
            mode="inline"
            selectedKeys={[pathname]}
            items={CONSOLE_MENU}
            onClick={({ key }) => navigate(key)}
            className={styles.menu}
          />
        </Layout.Sider>
        <Layout.Content className={styles.content}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
      {drawerLoaded && (
        <Suspense fallback={null}>
          <ConsoleDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} />
        </Suspense>
      )}
      <ConsoleTabBar />
    </Layout>
  );
}
