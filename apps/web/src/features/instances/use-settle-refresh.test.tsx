import { APP_EVENTS } from '@gpu/shared/constants';
import type { Instance } from '@gpu/shared/instances';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSettleRefresh } from './use-settle-refresh';

type Row = Pick<Instance, 'id' | 'status'>;

function Probe({ rows }: { rows: Row[] }) {
  useSettleRefresh(rows);
  return null;
}

const balance = vi.fn();
afterEach(() => {
  window.removeEventListener(APP_EVENTS.balance, balance);
  balance.mockReset();
});

/** Renders the hook over successive lists; answers how many balance events each step sent. */
function steps(...lists: Row[][]): number[] {
  window.addEventListener(APP_EVENTS.balance, balance);
  const client = new QueryClient();
  const wrap = (rows: Row[]) => (
    <QueryClientProvider client={client}>
      <Probe rows={rows} />
    </QueryClientProvider>
  );
  const counts: number[] = [];
  const { rerender } = render(wrap(lists[0] ?? []));
  counts.push(balance.mock.calls.length);
  for (const rows of lists.slice(1)) {
    rerender(wrap(rows));
    counts.push(balance.mock.calls.length);
  }
  return counts;
}

describe('useSettleRefresh', () => {
  it('refreshes money when a power on ends (开机中 → 运行中), once', () => {
    expect(
      steps([{ id: 1, status: 'STARTING' }], [{ id: 1, status: 'RUNNING' }], [{ id: 1, status: 'RUNNING' }]),
    ).toEqual([0, 1, 1]);
  });
  it('refreshes when a release or a create settles, not when a state is first seen or a job starts', () => {
    expect(
      steps(
        [{ id: 1, status: 'RUNNING' }],
        [{ id: 1, status: 'RELEASING' }],
        [
          { id: 1, status: 'RELEASED' },
          { id: 2, status: 'CREATING' },
        ],
        [
          { id: 1, status: 'RELEASED' },
          { id: 2, status: 'FAILED' },
        ],
      ),
    ).toEqual([0, 0, 1, 2]);
  });
});
