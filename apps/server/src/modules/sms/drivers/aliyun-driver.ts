import * as dysms from '@alicloud/dysmsapi20170525';
import { $OpenApiUtil } from '@alicloud/openapi-core';
import { maskPhone, type SmsDriver, SmsSendError } from './sms-driver.ts';

export interface AliyunSmsSettings {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templateCode: string;
  /** Template of the phone-changed notice, with a `phone` parameter (the new phone, masked); unset: no notice. */
  noticeTemplateCode?: string;
  /** Template of notification events (issue 31), with `title` and `content` parameters; unset: none is sent. */
  eventTemplateCode?: string;
  /** Host (and port) of the API; `http://` in front selects plain HTTP (local fakes in tests). */
  endpoint: string;
}

// The SDK is CommonJS with a default export; under ESM it may arrive wrapped once more.
const Client = ((dysms as unknown as { default: { default?: unknown } }).default.default ??
  (dysms as unknown as { default: unknown }).default) as typeof dysms.default;

/** Aliyun SMS through the official SDK: template with a `code` parameter. */
export function createAliyunSmsDriver(s: AliyunSmsSettings): SmsDriver {
  const plain = s.endpoint.startsWith('http://');
  const client = new Client(
    new $OpenApiUtil.Config({
      accessKeyId: s.accessKeyId,
      accessKeySecret: s.accessKeySecret,
      endpoint: s.endpoint.replace(/^https?:\/\//, ''),
      protocol: plain ? 'HTTP' : 'HTTPS',
      readTimeout: 5_000,
      connectTimeout: 3_000,
    }),
  );
  async function sendSms(phone: string, templateCode: string, params: Record<string, string>) {
    let res: Awaited<ReturnType<typeof client.sendSms>>;
    try {
      res = await client.sendSms(
        new dysms.SendSmsRequest({
          phoneNumbers: phone,
          signName: s.signName,
          templateCode,
          templateParam: JSON.stringify(params),
        }),
      );
    } catch (err) {
      throw new SmsSendError(`aliyun sms request failed: ${(err as Error).message}`);
    }
    if (res.body?.code !== 'OK') {
      throw new SmsSendError(`aliyun sms refused: ${res.body?.code} ${res.body?.message}`);
    }
  }
  return {
    kind: 'aliyun',
    send: ({ phone, code }) => sendSms(phone, s.templateCode, { code }),
    async sendNotice({ phone, notice }) {
      if (notice.kind === 'EVENT') {
        if (!s.eventTemplateCode) throw new SmsSendError('ALIYUN_SMS_EVENT_TEMPLATE_CODE is not set');
        await sendSms(phone, s.eventTemplateCode, { title: notice.title, content: notice.text });
        return;
      }
      if (!s.noticeTemplateCode) throw new SmsSendError('ALIYUN_SMS_NOTICE_TEMPLATE_CODE is not set');
      await sendSms(phone, s.noticeTemplateCode, { phone: maskPhone(notice.newPhone) });
    },
  };
}
