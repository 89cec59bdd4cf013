import type { FastifyBaseLogger } from 'fastify';
import type { SmsDriver } from './sms-driver.ts';

/** The offline default: the code goes to the server log. */
export function createConsoleSmsDriver(log: Pick<FastifyBaseLogger, 'info'>): SmsDriver {
  return {
    kind: 'console',
    async send({ phone, code, purpose }) {
      log.info({ phone, purpose, code }, `短信验证码 ${code} → ${phone}`);
    },
  };
}
