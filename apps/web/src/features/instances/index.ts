// What other features use of instances (the only way in from outside this folder).
export { useInstances } from './api/list-instances';
export { CreationWatcher } from './components/CreationWatcher';
export { GpuCell } from './components/cells';
export { StatusTag } from './components/StatusTag';
export { watchCreation } from './creation-watch';
export { isTransitional, POLL_FAST_MS, STATUS_META } from './instance-status';
export { waitForStable } from './wait-for-stable';
