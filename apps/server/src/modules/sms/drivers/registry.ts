import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../../app/config.ts';
import { createAliyunSmsDriver } from './aliyun-driver.ts';
import { createConsoleSmsDriver } from './console-driver.ts';
import type { SmsDriver } from './sms-driver.ts';

export function createSmsDriver(config: Config, log: FastifyBaseLogger): SmsDriver {
  if (config.SMS_PROVIDER === 'aliyun') {
    return createAliyunSmsDriver({
      accessKeyId: config.ALIYUN_SMS_ACCESS_KEY_ID as string,
      accessKeySecret: config.ALIYUN_SMS_ACCESS_KEY_SECRET as string,
      signName: config.ALIYUN_SMS_SIGN_NAME as string,
      templateCode: config.ALIYUN_SMS_TEMPLATE_CODE as string,
      noticeTemplateCode: config.ALIYUN_SMS_NOTICE_TEMPLATE_CODE,
      endpoint: config.ALIYUN_SMS_ENDPOINT,
    });
  }
  return createConsoleSmsDriver(log);
}
