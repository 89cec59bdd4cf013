import { Drawer } from 'antd';
import { LinkButton } from '../../../components/LinkButton';
import { PATHS } from '../../../lib/routing/paths';
import { isLoggedIn } from '../../../lib/session';
import { useSession } from '../../../lib/use-session';
import { t } from '../../../locales/zh-CN';
import styles from './AccountDrawer.module.css';
import { AccountPanel } from './AccountPanel';

/** The phone's bottom drawer: the account summary, or login and register. */
export default function AccountDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const loggedIn = isLoggedIn(useSession());
  return (
    <Drawer placement="bottom" open={open} onClose={onClose} title={t.nav.accountDrawerTitle} size="auto">
      {loggedIn ? (
        <AccountPanel />
      ) : (
        <div className={styles.guest}>
          <p className={styles.hint}>{t.nav.guestHint}</p>
          <LinkButton to={PATHS.login} type="primary" size="large" block>
            {t.nav.login}
          </LinkButton>
          <LinkButton to={PATHS.register} size="large" block>
            {t.nav.register}
          </LinkButton>
        </div>
      )}
    </Drawer>
  );
}
