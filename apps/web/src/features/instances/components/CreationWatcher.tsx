import type { Instance } from '@gpu/shared/instances';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { notify } from '../../../lib/feedback';
import { t } from '../../../locales/zh-CN';
import { announceMoneyChange } from '../../billing';
import { instanceKeys } from '../api/keys';
import { fetchInstances } from '../api/list-instances';
import { onWatchChange, unwatchCreation, watchedCreations } from '../creation-watch';
import { failureText } from '../failure';
import { POLL_FAST_MS } from '../instance-status';

const i18n = t.instances;

/**
 * Tells the user how each order they placed ended: SPEC's '容器创建成功，计费已开始！' once the
 * instance is RUNNING (billing starts there), or 容器创建失败 with the reason and whether money
 * was taken. Polls only while an order is being waited on. Either end moves money (billing starts,
 * or the refund), so the balance and the spend rate are refreshed then.
 */
export function CreationWatcher() {
  const queryClient = useQueryClient();
  const [ids, setIds] = useState(watchedCreations);
  useEffect(() => onWatchChange(() => setIds(watchedCreations())), []);
  const query = useQuery({
    queryKey: [...instanceKeys.lists(), 'creating', ids],
    queryFn: ({ signal }) => fetchInstances({ page: 1, size: 50 }, signal),
    enabled: ids.length > 0,
    refetchInterval: POLL_FAST_MS,
    staleTime: 0,
  });
  useEffect(() => {
    const list = query.data?.list;
    if (!list) return;
    for (const id of ids) {
      const inst: Instance | undefined = list.find((i) => i.id === id);
      if (!inst) {
        // Not among the newest: nothing to report from here.
        if (list.length < 50 || list.every((i) => i.id > id)) unwatchCreation(id);
        continue;
      }
      if (inst.status === 'CREATING') continue;
      unwatchCreation(id);
      announceMoneyChange(queryClient);
      if (inst.status === 'FAILED') {
        void notify('error', i18n.createFailedOf(inst.name, failureText(inst)), 8);
      } else {
        // SPEC's verbatim success text (the same string as @gpu/shared instanceMessages.created,
        // whose module would bring zod into every page that imports this feature).
        void notify('success', t.subscribe.created);
      }
    }
  }, [query.data, ids, queryClient]);
  return null;
}
