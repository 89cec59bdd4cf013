import { Drawer, Menu } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { t } from '../../locales/zh-CN';
import styles from './ConsoleLayout.module.css';
import { CONSOLE_DRAWER_MENU } from './console-menu';

/**
 * The console's menu on phones, behind the top bar's ☰: every console page by name, then the
 * site's links. Its own chunk (antd's Drawer), loaded on the first tap.
 */
export default function ConsoleDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return (
    <Drawer
      placement="left"
      open={open}
      onClose={onClose}
      title={t.console.menuTitle}
      size={280}
      styles={{ body: { padding: '8px 0' } }}
      data-testid="console-drawer"
    >
      <Menu
        mode="inline"
        selectedKeys={[pathname]}
        items={CONSOLE_DRAWER_MENU}
        onClick={({ key }) => navigate(key)}
        className={styles.drawerMenu}
      />
    </Drawer>
  );
}
