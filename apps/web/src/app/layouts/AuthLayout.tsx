import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageLoading } from '../../components/PageLoading';
import { TenantBrand } from '../../components/TenantBrand';
import { useTenant } from '../../lib/tenant-context';
import { t } from '../../locales/zh-CN';
import styles from './AuthLayout.module.css';

/** Login, register, forgot password and admin login: no navbar, the tenant's logo and name. */
export default function AuthLayout() {
  const { tenantName } = useTenant();
  return (
    <div className={styles.page}>
      <div className={styles.glow} aria-hidden />
      <div className={styles.column}>
        <div className={styles.brand}>
          <TenantBrand size={44} inverse />
          <p>{t.auth.welcome(tenantName)}</p>
        </div>
        <div className={styles.card}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </div>
        <p className={styles.copyright}>{t.footer.copyright(new Date().getFullYear(), tenantName)}</p>
      </div>
    </div>
  );
}
