import type { CodeType } from '@gpu/shared';

/** Sends one verification code. `revealsCode` means the answer may carry it (console, not production). */
export interface SmsDriver {
  readonly kind: 'console' | 'aliyun';
  send(msg: { phone: string; code: string; purpose: CodeType }): Promise<void>;
}

export class SmsSendError extends Error {}
