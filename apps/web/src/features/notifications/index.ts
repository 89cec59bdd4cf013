import { lazy } from 'react';

// What the app and other features use of notifications (the only way in from outside this
// folder). Both are lazy chunks: the top navigation is part of the entry, and a static export
// here would pull antd into it. The bell loads only for a signed-in user.
export const NotificationBell = lazy(() => import('./components/NotificationBell'));
export const AdminActionNotices = lazy(() => import('./components/AdminActionNotices'));
