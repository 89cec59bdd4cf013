import { render, screen, waitFor } from '@testing-library/react';
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

/** The error element's effect (log, then maybe reload) runs after the text is on screen: wait for its log. */
const effectsRun = () =>
  vi.mocked(console.error).mock.calls.filter(([what]) => what === 'route error').length;

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
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    first.unmount();
    renderFailing(chunk);
    expect(await screen.findByText('页面加载失败')).toBeTruthy();
    await waitFor(() => expect(effectsRun()).toBe(2));
    expect(reload).toHaveBeenCalledTimes(1);
  });
  it('does not reload for a render error, and logs it', async () => {
    renderFailing(new TypeError('boom'));
    expect(await screen.findByText('页面加载失败')).toBeTruthy();
    await waitFor(() => expect(console.error).toHaveBeenCalledWith('route error', expect.any(TypeError)));
    expect(reload).not.toHaveBeenCalled();
  });
});
