import { lazy } from 'react';

/** Guards (issue 31): the row's marker, the 自动关机 dialog (loaded on first use). */
export { GuardMarker } from './components/GuardMarker';
export const AutoShutdownDialog = lazy(() =>
  import('./components/AutoShutdownDialog').then((m) => ({ default: m.AutoShutdownDialog })),
);
