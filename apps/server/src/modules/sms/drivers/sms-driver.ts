import type { CodeType } from '@gpu/shared';

/** A message that carries no code: something changed (the old phone), or a notification event (issue 31). */
export type SmsNotice =
  | { kind: 'PHONE_CHANGED'; newPhone: string }
  | { kind: 'EVENT'; title: string; text: string };

/** Sends one verification code, or a notice. `kind` console: the answer may carry the code (not production). */
export interface SmsDriver {
  readonly kind: 'console' | 'aliyun';
  send(msg: { phone: string; code: string; purpose: CodeType }): Promise<void>;
  sendNotice(msg: { phone: string; notice: SmsNotice }): Promise<void>;
}

export class SmsSendError extends Error {}

/** 138****8000: a notice names the new phone without spelling it out to whoever holds the old one. */
export const maskPhone = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(-4)}`;

/** The notice's words, as the console provider logs them (an SMS template holds them at Aliyun). */
export function noticeText(notice: SmsNotice): string {
  switch (notice.kind) {
    case 'PHONE_CHANGED':
      return `您的账号绑定手机号已更换为${maskPhone(notice.newPhone)}，如非本人操作，请立即联系客服。`;
    case 'EVENT':
      return `${notice.title}：${notice.text}`;
  }
}
