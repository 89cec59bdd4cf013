import { Grid } from 'antd';

/** Drawer/modal width and table scroll for the back office: full width on phones. */
export function useAdminLayout() {
  const screens = Grid.useBreakpoint();
  const mobile = !screens.md;
  return { mobile, drawerWidth: mobile ? '100%' : 640, scrollX: 'max-content' as const };
}
