import { cleanup } from '@testing-library/react';
import { afterAll, afterEach } from 'vitest';

// What jsdom lacks and antd or React Router call.
window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  onchange: null,
  addListener: () => {},
  removeListener: () => {},
  addEventListener: () => {},
  removeEventListener: () => {},
  dispatchEvent: () => false,
})) as typeof window.matchMedia;
window.scrollTo = () => {};
// antd's Table and overflow lists observe their size; jsdom has no layout, so nothing to report.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

// React's scheduler may still have a task queued when a file's last test ends; let it run while
// jsdom's window exists (else it throws 'window is not defined' after the environment is gone).
afterAll(() => new Promise<void>((resolve) => setTimeout(resolve, 50)));
