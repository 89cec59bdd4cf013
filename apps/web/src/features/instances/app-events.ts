import { APP_EVENTS } from '@gpu/shared/constants';
import type { AppEventName } from '../../lib/app-events';

/** The events after which the instance list reloads (SPEC.md §9). */
export const INSTANCE_EVENTS: AppEventName[] = [
  APP_EVENTS.instanceCreated,
  APP_EVENTS.instanceDeleted,
  APP_EVENTS.instanceStarted,
  APP_EVENTS.instanceStopped,
];
