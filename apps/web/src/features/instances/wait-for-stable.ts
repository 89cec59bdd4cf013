import type { InstanceStatus } from '@gpu/shared/labels';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { isTransitional } from './instance-status';

type Row = { id: number; status: InstanceStatus };

/**
 * Power off, power on and release are jobs on the server: the answer is the transitional state
 * and the lists poll every 2 s until it moves on. This resolves once a list under `queryKey`
 * shows instance `id` in a stable state ('gone' when a fresh list no longer has it, e.g. a
 * released instance or a monitor that lists running ones only; null after `timeoutMs`).
 */
export function waitForStable<T extends Row>(
  queryClient: QueryClient,
  queryKey: QueryKey,
  id: number,
  timeoutMs = 10 * 60_000,
): Promise<T | 'gone' | null> {
  // Only lists on screen: an inactive one (an earlier filter) is never refetched and stays stale.
  const find = () => {
    for (const query of queryClient.getQueryCache().findAll({ queryKey, type: 'active' })) {
      const found = (query.state.data as { list?: T[] } | undefined)?.list?.find((i) => i.id === id);
      if (found) return found;
    }
    return undefined;
  };
  return new Promise((resolve) => {
    let done = false;
    const end = (v: T | 'gone' | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      unsubscribe();
      resolve(v);
    };
    const timer = setTimeout(() => end(null), timeoutMs);
    const check = (fetched: boolean) => {
      const now = find();
      if (now && !isTransitional(now.status)) end(now);
      else if (!now && fetched) end('gone');
    };
    const unsubscribe = queryClient.getQueryCache().subscribe((e) => {
      const key = e.query.queryKey;
      const mine = queryKey.every((part, i) => JSON.stringify(part) === JSON.stringify(key[i]));
      // Only a fresh page of instances can say one is gone (statistics under the same key cannot).
      const isList = Array.isArray((e.query.state.data as { list?: unknown } | undefined)?.list);
      if (mine && isList && e.type === 'updated' && e.action.type === 'success') check(true);
    });
    check(false);
  });
}
