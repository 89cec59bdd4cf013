import { lazy } from 'react';

// What the app uses of account (the only way in from outside this folder): the top navigation's
// account menu and phone drawer, each its own chunk (only a logged-in visitor needs the menu,
// only a phone the drawer).
export const UserMenu = lazy(() => import('./components/UserMenu'));
export const AccountDrawer = lazy(() => import('./components/AccountDrawer'));
// The 连接 drawer tells how many SSH keys an instance gets at its next start.
export { useSshKeys } from './api/ssh-keys';
// The back office's session lists name devices the same way.
export { deviceLabel } from './device-label';
