import type { InstanceStatus } from '@gpu/shared/labels';

export interface InstanceListQuery {
  page: number;
  size: number;
  status?: InstanceStatus;
  /** '1': leave released instances out, except those released at or after releasedSince. */
  hideReleased?: '1';
  releasedSince?: string;
}

/** Query keys of the user's instances (also refreshed by the instance events). */
export const instanceKeys = {
  all: ['instances'] as const,
  lists: () => [...instanceKeys.all, 'list'] as const,
  list: (q: InstanceListQuery) => [...instanceKeys.lists(), q] as const,
  renewalPricing: (instanceId: number | null) =>
    [...instanceKeys.all, 'renewal-pricing', instanceId] as const,
};
