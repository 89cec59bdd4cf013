/**
 * The public face of sms: what other modules may import. The module's definition for the app is
 * sms.module.ts.
 */
export {
  maskPhone,
  noticeText,
  type SmsDriver,
  type SmsNotice,
  SmsSendError,
} from './drivers/sms-driver.ts';
