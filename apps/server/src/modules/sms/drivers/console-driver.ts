import type { FastifyBaseLogger } from 'fastify';
import { noticeText, type SmsDriver } from './sms-driver.ts';

/** The offline default: codes and notices go to the server log. */
export function createConsoleSmsDriver(log: Pick<FastifyBaseLogger, 'info'>): SmsDriver {
  return {
    kind: 'console',
    async send({ phone, code, purpose }) {
      log.info({ phone, purpose, code }, `短信验证码 ${code} → ${phone}`);
    },
    async sendNotice({ phone, notice }) {
      log.info({ phone, notice: notice.kind }, `短信通知 → ${phone}：${noticeText(notice)}`);
    },
  };
}
