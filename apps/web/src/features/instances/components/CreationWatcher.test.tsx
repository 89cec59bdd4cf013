import { APP_EVENTS } from '@gpu/shared/constants';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, restoreApi, stubApi } from '../../../test/api-stub';
import { watchCreation, watchedCreations } from '../creation-watch';
import { instance } from '../test-fixtures';
import { CreationWatcher } from './CreationWatcher';

const notify = vi.hoisted(() => vi.fn());
vi.mock('../../../lib/feedback', () => ({ notify }));

afterEach(() => {
  restoreApi();
  window.sessionStorage.clear();
  notify.mockReset();
});

/** The watcher over an instance list that says `status` for instance 7. */
function watch(status: 'CREATING' | 'RUNNING' | 'FAILED') {
  stubApi((url) =>
    url.pathname === '/api/gpu/instances'
      ? ok({ list: [instance({ id: 7, status })], total: 1, page: 1, size: 50 })
      : undefined,
  );
  const balance = vi.fn();
  window.addEventListener(APP_EVENTS.balance, balance);
  watchCreation(7);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <CreationWatcher />
    </QueryClientProvider>,
  );
  return balance;
}

describe('CreationWatcher', () => {
  it('reports RUNNING once and refreshes money (billing starts there: the spend rate changes)', async () => {
    const balance = watch('RUNNING');
    await waitFor(() => expect(notify).toHaveBeenCalledWith('success', '容器创建成功，计费已开始！'));
    expect(balance).toHaveBeenCalledTimes(1);
    expect(watchedCreations()).toEqual([]);
    window.removeEventListener(APP_EVENTS.balance, balance);
  });
  it('refreshes money after a failure too (the refund)', async () => {
    const balance = watch('FAILED');
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', expect.stringContaining('创建失败'), 8));
    expect(balance).toHaveBeenCalledTimes(1);
    window.removeEventListener(APP_EVENTS.balance, balance);
  });
  it('stays quiet while the instance is still being created', async () => {
    const balance = watch('CREATING');
    await new Promise((r) => setTimeout(r, 300));
    expect(notify).not.toHaveBeenCalled();
    expect(balance).not.toHaveBeenCalled();
    expect(watchedCreations()).toEqual([7]);
    window.removeEventListener(APP_EVENTS.balance, balance);
  });
});
