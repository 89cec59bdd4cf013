import type { DockerInstance } from '@gpu/shared';
import type { AuthUser } from '../auth/index.ts';
import { hostErrors } from './hosts.errors.ts';

/**
 * What the local-docker endpoints need from the instances module (issue 7): the owner's
 * instances, which instance ids still want their container, and the owner's power actions
 * (state machine, billing and driver calls live there). Every method answers for the user's
 * own instances only; another user's or tenant's instance is "not found".
 */
export interface DockerInstanceGateway {
  listForUser(user: AuthUser): Promise<DockerInstance[]>;
  /** The ids among `ids` whose instance still exists and is not RELEASED or FAILED. */
  liveInstanceIds(ids: number[]): Promise<Set<number>>;
  /** The hosts where the user has an ended instance (RELEASED or FAILED): the only ones their cleanup visits. */
  endedInstanceHostIds(user: AuthUser): Promise<number[]>;
  powerOff(user: AuthUser, id: number): Promise<DockerInstance>;
  powerOn(user: AuthUser, id: number): Promise<DockerInstance>;
  release(user: AuthUser, id: number): Promise<DockerInstance>;
}

/**
 * Until the instances table exists there are no instances: the list is empty, power actions
 * answer 404, and no container's instance is live. Replaced by issue 7's implementation.
 */
export const noInstancesYet: DockerInstanceGateway = {
  listForUser: async () => [],
  liveInstanceIds: async () => new Set(),
  endedInstanceHostIds: async () => [],
  powerOff: async () => {
    throw hostErrors.instanceNotFound();
  },
  powerOn: async () => {
    throw hostErrors.instanceNotFound();
  },
  release: async () => {
    throw hostErrors.instanceNotFound();
  },
};
