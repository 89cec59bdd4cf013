import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isChunkLoadError, RouteError } from './RouteError';

const reload = vi.fn();

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.sessionStorage.clear();
  reload.mockReset();
});

function renderFailing(error: Error) {
  vi.stubGlobal('location', { ...window.location, pathname: '/admin/security', search: '', reload });
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const router = createMemoryRouter([
    {
      path: '/',
      loader: () => {
        throw error;
      },
      element: null,
      errorElement: <RouteError />,
    },
  ]);
  return render(<RouterProvider router={router} />);
}

describe('RouteError', () => {
  it('tells chunk load failures from other errors', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(
      true,
    );
    expect(isChunkLoadError(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false);
    expect(isChunkLoadError('dynamically imported module')).toBe(false);
  });
  it('reloads once for a chunk that failed to load, then shows the error', async () => {
    const chunk = new TypeError('Failed to fetch dynamically imported module: /assets/AdminSecurityPage.js');
    const first = renderFailing(chunk);
    expect(await screen.findByText('页面加载失败')).toBeTruthy();
    expect(reload).toHaveBeenCalledTimes(1);
    first.unmount();
    renderFailing(chunk);
    expect(await screen.findByText('页面加载失败')).toBeTruthy();
    expect(reload).toHaveBeenCalledTimes(1);
  });
  it('does not reload for a render error, and logs it', async () => {
    renderFailing(new TypeError('boom'));
    expect(await screen.findByText('页面加载失败')).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
    expect(console.error).toHaveBeenCalledWith('route error', expect.any(TypeError));
  });
});
