import type { FastifyBaseLogger } from 'fastify';
import { createAliyunSmsDriver } from './aliyun-driver.ts';
import { createConsoleSmsDriver } from './console-driver.ts';
import type { SmsDriver } from './sms-driver.ts';

/** The settings (env vars, app/config.ts) the SMS provider is chosen and configured by. */
export interface SmsSettings {
  SMS_PROVIDER: 'console' | 'aliyun';
  ALIYUN_SMS_ACCESS_KEY_ID?: string;
  ALIYUN_SMS_ACCESS_KEY_SECRET?: string;
  ALIYUN_SMS_SIGN_NAME?: string;
  ALIYUN_SMS_TEMPLATE_CODE?: string;
  ALIYUN_SMS_NOTICE_TEMPLATE_CODE?: string;
  ALIYUN_SMS_EVENT_TEMPLATE_CODE?: string;
  ALIYUN_SMS_ENDPOINT: string;
}

export function createSmsDriver(config: SmsSettings, log: FastifyBaseLogger): SmsDriver {
  if (config.SMS_PROVIDER === 'aliyun') {
    return createAliyunSmsDriver({
      accessKeyId: config.ALIYUN_SMS_ACCESS_KEY_ID as string,
      accessKeySecret: config.ALIYUN_SMS_ACCESS_KEY_SECRET as string,
      signName: config.ALIYUN_SMS_SIGN_NAME as string,
      templateCode: config.ALIYUN_SMS_TEMPLATE_CODE as string,
      noticeTemplateCode: config.ALIYUN_SMS_NOTICE_TEMPLATE_CODE,
      eventTemplateCode: config.ALIYUN_SMS_EVENT_TEMPLATE_CODE,
      endpoint: config.ALIYUN_SMS_ENDPOINT,
    });
  }
  return createConsoleSmsDriver(log);
}
