import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageLoading } from '../../components/PageLoading';
import { CustomerService } from './CustomerService';
import styles from './PublicLayout.module.css';
import { SiteFooter } from './SiteFooter';
import { TopNav } from './TopNav';

/** Top navigation, the page, the footer and the floating customer-service widget. */
export default function PublicLayout() {
  return (
    <div className={styles.layout}>
      <TopNav />
      <main className={styles.main}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
      <CustomerService />
    </div>
  );
}
