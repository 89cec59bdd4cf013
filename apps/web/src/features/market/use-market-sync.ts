import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { marketKeys } from './api/keys';
import { syncMarket } from './api/sync-market';
import { startMarketSync } from './market-sync';

/**
 * Runs the background sync of SPEC.md §4 once the first market answer is in (see
 * startMarketSync); answers whether a sync is running, for the "正在同步…" indicator.
 */
export function useMarketSync(firstLoadDone: boolean, itemCount: number | undefined): boolean {
  const queryClient = useQueryClient();
  const [syncing, setSyncing] = useState(false);
  const [started, setStarted] = useState(false);
  if (firstLoadDone && !started) setStarted(true);

  const count = useRef(itemCount);
  useEffect(() => {
    count.current = itemCount;
  });

  useEffect(() => {
    if (!started) return;
    return startMarketSync({
      sync: syncMarket,
      reload: () => queryClient.invalidateQueries({ queryKey: marketKeys.all }),
      itemCount: () => count.current,
      onSyncingChange: setSyncing,
    });
  }, [started, queryClient]);

  return syncing;
}
