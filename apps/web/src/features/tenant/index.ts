import { lazy } from 'react';

// What the app uses of tenant (the only way in from outside this folder).
export { loadTenantConfig } from './api/get-tenant-config';

/** Development only: the tenant switcher is not even part of the production build. */
export const DevTenantSwitcher = import.meta.env.DEV
  ? lazy(() => import('./components/TenantSwitcher'))
  : null;
