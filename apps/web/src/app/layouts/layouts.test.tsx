import type { User } from '@gpu/shared/auth';
import type { TenantConfig } from '@gpu/shared/tenant';
import { DEFAULT_TENANT_CONFIG } from '@gpu/shared/tenant-defaults';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { FallbackImage } from '../../components/FallbackImage';
import { clearUserSession, setUserSession } from '../../lib/session';
import { AppProviders } from '../providers';
import { appRoutes } from '../router';

function renderHome(tenant: TenantConfig = DEFAULT_TENANT_CONFIG) {
  const router = createMemoryRouter(appRoutes, { initialEntries: ['/'] });
  render(
    <AppProviders tenant={tenant}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

// antd is a lazy chunk now (AntdScope): transformed once here, not inside a test's 1 s wait.
beforeAll(async () => {
  await import('../antd-providers');
  await import('../../features/home/pages/HomePage');
  await import('../../features/account/components/UserMenu');
  await import('../../features/notifications/components/NotificationBell');
}, 60_000);

describe('public layout', () => {
  it('offers login and register to visitors, and Console goes through login', async () => {
    renderHome();
    expect(await screen.findByTestId('nav-login')).toBeTruthy();
    expect(screen.getByTestId('nav-register').getAttribute('href')).toBe('/register');
    expect(screen.queryByTestId('notification-bell')).toBeNull();
    expect((await screen.findByTestId('hero-console')).getAttribute('href')).toBe(
      '/login?redirect=%2Fconsole',
    );
  });

  it('shows the user menu to a logged-in user, and Console goes straight there', async () => {
    setUserSession('tok', { id: 1, username: 'alice' } as User);
    renderHome();
    expect((await screen.findByTestId('user-menu', {}, { timeout: 8_000 })).textContent).toContain('alice');
    // The message centre's bell is in the bar for a signed-in user (issue 31).
    expect(await screen.findByTestId('notification-bell')).toBeTruthy();
    expect(screen.queryByTestId('nav-register')).toBeNull();
    expect((await screen.findByTestId('hero-console')).getAttribute('href')).toBe('/console');
    clearUserSession();
  });

  it('writes the support contact from the tenant, or says there is none', async () => {
    renderHome({ ...DEFAULT_TENANT_CONFIG, contact: { email: 'a@b.cn', phone: '400-1', supportUrl: '' } });
    expect((await screen.findByTestId('footer-contact')).textContent).toBe('邮箱 a@b.cn / 电话 400-1');
  });

  it('says "no contact info" and hides the filing link when the tenant has neither', async () => {
    renderHome();
    expect((await screen.findByTestId('footer-contact')).textContent).toBe('暂无联系方式');
    expect(screen.queryByTestId('beian')).toBeNull();
  });
});

describe('FallbackImage', () => {
  it('shows the placeholder for an empty source and after a load error', async () => {
    const { rerender } = render(<FallbackImage src="" alt="qr" />);
    expect(screen.getByRole('img').getAttribute('data-placeholder')).toBe('true');
    rerender(<FallbackImage src="/qr.png" alt="qr" />);
    const img = screen.getByRole('img');
    expect(img.getAttribute('src')).toBe('/qr.png');
    fireEvent.error(img);
    await waitFor(() => expect(screen.getByRole('img').getAttribute('data-placeholder')).toBe('true'));
    expect(screen.getByRole('img').getAttribute('alt')).toBe('图片加载失败');
  });
});
