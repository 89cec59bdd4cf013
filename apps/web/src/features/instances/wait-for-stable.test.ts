import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { waitForStable } from './wait-for-stable';

type Row = { id: number; status: 'RUNNING' | 'STOPPING' | 'STOPPED' };

/** A list query on screen (an active observer) whose answers come from `pages`, one per fetch. */
function activeList(client: QueryClient, key: unknown[], pages: Row[][]) {
  let n = 0;
  const observer = new QueryObserver(client, {
    queryKey: key,
    queryFn: async () => ({ list: pages[Math.min(n++, pages.length - 1)] }),
  });
  const unsubscribe = observer.subscribe(() => undefined);
  return { refetch: () => observer.refetch(), unsubscribe };
}

describe('waitForStable', () => {
  it('waits while the row is transitional and resolves with the end state a fresh list shows', async () => {
    const client = new QueryClient();
    const list = activeList(
      client,
      ['i', 'list'],
      [[{ id: 1, status: 'STOPPING' }], [{ id: 1, status: 'STOPPED' }]],
    );
    await list.refetch();
    let settled: unknown;
    const done = waitForStable<Row>(client, ['i'], 1).then((v) => {
      settled = v;
    });
    await Promise.resolve();
    expect(settled).toBeUndefined();
    await list.refetch();
    await done;
    expect(settled).toEqual({ id: 1, status: 'STOPPED' });
    list.unsubscribe();
  });

  it("says 'gone' when a fresh list no longer has it, and ignores stale inactive lists", async () => {
    const client = new QueryClient();
    client.setQueryData(['i', 'old-filter'], { list: [{ id: 2, status: 'RUNNING' }] });
    const list = activeList(client, ['i', 'list'], [[{ id: 2, status: 'STOPPING' }], []]);
    await list.refetch();
    const done = waitForStable<Row>(client, ['i'], 2);
    await list.refetch();
    expect(await done).toBe('gone');
    list.unsubscribe();
  });
});
