import { lazy } from 'react';

// The drawers load on first use: their chunks (and echarts after them) stay out of the lists' pages.
export const InstanceMetricsDrawer = lazy(() => import('./components/InstanceMetricsDrawer'));
export const HostMetricsDrawer = lazy(() => import('./components/HostMetricsDrawer'));
