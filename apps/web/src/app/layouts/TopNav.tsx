import { MenuOutlined, UserOutlined } from '@ant-design/icons';
import { useEffect, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { PlainIconButton, PlainLinkButton } from '../../components/PlainButton';
import { TenantBrand } from '../../components/TenantBrand';
import { AccountDrawer, UserMenu } from '../../features/account';
import { NotificationBell } from '../../features/notifications';
import { PATHS } from '../../lib/routing/paths';
import { isLoggedIn } from '../../lib/session';
import { useSession } from '../../lib/use-session';
import { t } from '../../locales/zh-CN';
import { AntdScope } from '../AntdScope';
import { NAV_LINKS } from './nav-links';
import styles from './TopNav.module.css';

const linkClass = ({ isActive }: { isActive: boolean }) => `${styles.link} ${isActive ? styles.active : ''}`;

/** A layout's own menu behind the ☰ (the console's drawer) instead of the site dropdown. */
export interface TopNavMenu {
  open: boolean;
  onOpen: () => void;
}

/**
 * The top navigation of SPEC.md §2; below 860 px a hamburger dropdown and a bottom drawer.
 * `wide` spans the whole width (beside the console's sidebar); `menu` replaces the dropdown.
 */
export function TopNav({ wide = false, menu }: { wide?: boolean; menu?: TopNavMenu }) {
  const loggedIn = isLoggedIn(useSession());
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [drawerLoaded, setDrawerLoaded] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);

  // Close the mobile menus on navigation.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the location changes
  useEffect(() => {
    setMenuOpen(false);
    setDrawerOpen(false);
  }, [location.pathname]);

  useEffect(() => {
    if (!menuOpen) return;
    const close = (event: PointerEvent) => {
      if (!menuRef.current?.contains(event.target as Node)) setMenuOpen(false);
    };
    document.addEventListener('pointerdown', close);
    return () => document.removeEventListener('pointerdown', close);
  }, [menuOpen]);

  return (
    <header className={styles.header}>
      <div className={`${styles.inner} ${wide ? styles.wide : ''}`}>
        <TenantBrand className={styles.brand} />
        <nav className={styles.links} aria-label={t.routes.home}>
          {NAV_LINKS.map((link) => (
            <NavLink key={link.to} to={link.to} className={linkClass}>
              {link.label}
            </NavLink>
          ))}
        </nav>
        {/* One bell for desktop and phone: it stays in the bar when the rest folds into ☰. */}
        {loggedIn && (
          <div className={styles.bell}>
            <AntdScope>
              <NotificationBell />
            </AntdScope>
          </div>
        )}
        <div className={styles.actions}>
          <PlainLinkButton to={PATHS.console.root} data-testid="nav-console">
            {t.nav.console}
          </PlainLinkButton>
          {loggedIn ? (
            <AntdScope>
              <UserMenu />
            </AntdScope>
          ) : (
            <>
              <PlainLinkButton to={PATHS.login} type="text" data-testid="nav-login">
                {t.nav.login}
              </PlainLinkButton>
              <PlainLinkButton to={PATHS.register} type="primary" data-testid="nav-register">
                {t.nav.register}
              </PlainLinkButton>
            </>
          )}
        </div>

        <div className={styles.mobile} ref={menuRef}>
          <PlainIconButton
            icon={<UserOutlined />}
            aria-label={t.nav.account}
            onClick={() => {
              setDrawerLoaded(true);
              setDrawerOpen(true);
            }}
          />
          <PlainIconButton
            icon={<MenuOutlined />}
            aria-label={t.nav.openMenu}
            aria-expanded={menu ? menu.open : menuOpen}
            onClick={() => (menu ? menu.onOpen() : setMenuOpen((open) => !open))}
            data-testid="nav-hamburger"
          />
          {menuOpen && (
            <nav className={styles.dropdown} aria-label={t.nav.openMenu}>
              {NAV_LINKS.map((link) => (
                <NavLink key={link.to} to={link.to} className={linkClass}>
                  {link.label}
                </NavLink>
              ))}
              <NavLink to={PATHS.console.root} className={linkClass}>
                {t.nav.console}
              </NavLink>
            </nav>
          )}
        </div>
      </div>
      {drawerLoaded && (
        <AntdScope>
          <AccountDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} />
        </AntdScope>
      )}
    </header>
  );
}
