import type { AiNavigation, EmbedStatus } from '@gpu/shared/ai-navigation';
import { useCallback, useEffect, useState } from 'react';
import { api } from '../../lib/api-client';

/** Without a load event by then, the embedded page is treated as unavailable. */
export const AI_NAVIGATION_TIMEOUT_MS = 15_000;
/** While the server has not checked the page yet, ask again this often (until the timeout). */
const UNKNOWN_RETRY_MS = 1_500;

/**
 * Whether the server found that the tenant's page can show in our frame. Plain state, not a
 * query: this public page's chunk stays without TanStack Query. `check` asks again (retry).
 */
export function useEmbedStatus(): { embed: EmbedStatus | undefined; check: () => void } {
  const [embed, setEmbed] = useState<EmbedStatus>();
  const [round, setRound] = useState(0);
  const check = useCallback(() => setRound((n) => n + 1), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new round asks again
  useEffect(() => {
    let stopped = false;
    let timer: number | undefined;
    const deadline = Date.now() + AI_NAVIGATION_TIMEOUT_MS;
    const ask = async () => {
      const answer = await api.get<AiNavigation>('/tenant/ai-navigation').catch(() => undefined);
      if (stopped) return;
      setEmbed(answer?.embed);
      if (answer?.embed === 'unknown' && Date.now() < deadline)
        timer = window.setTimeout(ask, UNKNOWN_RETRY_MS);
    };
    void ask();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [round]);

  return { embed, check };
}
