import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { PageLoading } from '../../components/PageLoading';
import { isLoggedIn } from '../../lib/session';
import { useSession } from '../../lib/use-session';
import { ConsoleTabBar, TAB_BAR_ROUTES } from './ConsoleTabBar';
import { CustomerService } from './CustomerService';
import styles from './PublicLayout.module.css';
import { SiteFooter } from './SiteFooter';
import { TopNav } from './TopNav';

/**
 * Top navigation, the page, the footer and the floating customer-service widget. The pages the
 * console's phone tabs lead to (充值, 我的) keep the tab bar, so a tab never strands the customer.
 */
export default function PublicLayout() {
  const loggedIn = isLoggedIn(useSession());
  const { pathname } = useLocation();
  const tabs = loggedIn && TAB_BAR_ROUTES.includes(pathname);
  return (
    <div className={`${styles.layout} ${tabs ? styles.withTabs : ''}`}>
      <TopNav />
      <main className={styles.main}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
      <CustomerService />
      {tabs && <ConsoleTabBar />}
    </div>
  );
}
