/**
 * The public face of instances: what other modules may import (besides its tables files). The module's
 * definition for the app is instances.module.ts.
 */

export { imageErrors } from './images/images.errors.ts';
export type { InstanceDeps } from './instances.deps.ts';
export { actorLabel } from './instances.deps.ts';
export { instanceErrors } from './instances.errors.ts';
export { ACCRUING, accruedAt, currentRate } from './instances.models.ts';
export { toInstanceView } from './instances.models.view.ts';
export {
  createInstancesRepository,
  type InstanceListed,
  type InstanceWithPlace,
} from './instances.repository.ts';
export { INSTANCES_TALLY } from './instances-list.repository.ts';
export { powerOff, powerOn, release, resetSystem } from './lifecycle/lifecycle.usecases.ts';
export { postedBySql } from './metering/posted-by.repository.ts';
