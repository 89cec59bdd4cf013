import { DownOutlined } from '@ant-design/icons';
import { Dropdown } from 'antd';
import { useSession } from '../../../lib/use-session';
import { useBalanceEventRefresh } from '../../billing';
import { useVoucherEventRefresh } from '../../vouchers';
import { AccountPanel } from './AccountPanel';
import styles from './UserMenu.module.css';

/** The desktop user dropdown of the top navigation. */
export default function UserMenu() {
  const { user } = useSession();
  // SPEC.md §9: the balance here and in the mobile drawer reloads 500 ms after a balance event.
  useBalanceEventRefresh(Boolean(user));
  useVoucherEventRefresh(Boolean(user));
  if (!user) return null;
  return (
    <Dropdown
      trigger={['hover', 'click']}
      placement="bottomRight"
      popupRender={() => (
        <div className={styles.popup}>
          <AccountPanel />
        </div>
      )}
    >
      <button type="button" className={styles.trigger} data-testid="user-menu">
        <span className={styles.avatar}>{user.username.slice(0, 1).toUpperCase()}</span>
        <span className={styles.name}>{user.username}</span>
        <DownOutlined className={styles.caret} />
      </button>
    </Dropdown>
  );
}
