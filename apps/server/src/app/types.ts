import type { HostDriverRegistry, VastClient } from '../modules/hosts/index.ts';
import type { PaymentDriver } from '../modules/payments/index.ts';
import type { SmsDriver } from '../modules/sms/index.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/http/types.ts';

/** The outside world the container lets callers (tests, main) replace. */
export interface ContainerOverrides {
  clock?: Clock;
  log?: Logger;
  sms?: SmsDriver;
  payments?: PaymentDriver;
  hostDrivers?: HostDriverRegistry;
  /** vast.ai's client (tests: one with a fast backoff); used only when VASTAI_API_KEY is set. */
  vast?: VastClient;
}
