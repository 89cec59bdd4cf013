import { lazy } from 'react';

/** Guards (issue 31): the row's marker, the 自动关机 dialog (loaded on first use). */
export { GuardMarker } from './components/GuardMarker';
export const AutoShutdownDialog = lazy(() =>
  import('./components/AutoShutdownDialog').then((m) => ({ default: m.AutoShutdownDialog })),
);
/** 保持运行 on an idle warning in the bell or the message centre (loaded only where one shows). */
export const KeepRunningButton = lazy(() =>
  import('./components/KeepRunningButton').then((m) => ({ default: m.KeepRunningButton })),
);
