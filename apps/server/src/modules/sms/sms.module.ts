import { defineModule } from '../../platform/module.ts';
import { createSmsDriver, type SmsSettings } from './drivers/registry.ts';
import type { SmsDriver } from './drivers/sms-driver.ts';

export interface SmsDeps {
  driver: SmsDriver;
}

/** Text messages: verification codes and notices, through the provider SMS_PROVIDER names. */
export const smsModule = defineModule({
  name: 'sms',
  createDeps: (core, needs: { settings: SmsSettings; driver?: SmsDriver }): SmsDeps => ({
    driver: needs.driver ?? createSmsDriver(needs.settings, core.log),
  }),
  register: () => {},
});
