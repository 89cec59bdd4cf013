/**
 * The public face of sms: what other modules may import (besides its tables files). The module's
 * definition for the app is sms.module.ts.
 */
export type { SmsDriver } from './drivers/sms-driver.ts';
