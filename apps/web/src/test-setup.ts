import { act, cleanup } from '@testing-library/react';
import message from 'antd/es/message';
import Modal from 'antd/es/modal';
import { unstable_IdlePriority, unstable_scheduleCallback } from 'scheduler';
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
  // Toasts and confirm dialogs (lib/feedback.ts) render into antd's own roots, which cleanup()
  // does not unmount: a toast's closing timer then ran React after the file's window was gone
  // ('window is not defined' once the jsdom environment was torn down).
  act(() => {
    message.destroy();
    Modal.destroyAll();
  });
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

// React's scheduler may still have work queued when a file's last test ends (timers firing, a
// render in time slices): it must finish while jsdom's window exists, else it throws 'window is
// not defined' after the environment is gone. Timers get 50 ms; then a task of the lowest
// priority runs only once every task queued before it has (a fixed wait was too short on a
// loaded CI machine).
afterAll(async () => {
  await new Promise<void>((resolve) => setTimeout(resolve, 50));
  await new Promise<void>((resolve) => {
    unstable_scheduleCallback(unstable_IdlePriority, () => resolve());
  });
});
