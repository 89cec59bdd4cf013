import type { Instance } from '@gpu/shared/instances';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { announceMoneyChange } from '../billing';
import { isTransitional } from './instance-status';

/**
 * Money moves when an instance's job ends, not when it is asked for: power on answers 开机中 and
 * billing starts at 运行中; a release or failed create refunds at its end. So when a listed
 * instance leaves a transitional state, the balance and the spend rate are refreshed.
 */
export function useSettleRefresh(instances: readonly Pick<Instance, 'id' | 'status'>[]) {
  const queryClient = useQueryClient();
  const seen = useRef(new Map<number, Instance['status']>());
  useEffect(() => {
    let settled = false;
    for (const { id, status } of instances) {
      const before = seen.current.get(id);
      if (before && before !== status && isTransitional(before) && !isTransitional(status)) settled = true;
      seen.current.set(id, status);
    }
    if (settled) announceMoneyChange(queryClient);
  }, [instances, queryClient]);
}
