import { requestEnvelope } from '../../../lib/api-client';
import { notify } from '../../../lib/feedback';
import { t } from '../../../locales/zh-CN';

/** How long the test environment's code stays on screen (SPEC.md §8). */
export const TEST_CODE_NOTICE_S = 10;

export interface CodeSent {
  /** Only outside production (the console SMS provider). */
  code?: string;
}

/** POST /auth/send-verification-code with codeType REGISTER. */
export const sendRegisterCode = async (phone: string) =>
  (
    await requestEnvelope<CodeSent>('POST', '/auth/send-verification-code', {
      body: { phone, codeType: 'REGISTER' },
    })
  ).data;

/** POST /auth/send-reset-password-code. */
export const sendResetCode = async (phone: string) =>
  (await requestEnvelope<CodeSent>('POST', '/auth/send-reset-password-code', { body: { phone } })).data;

/** SPEC.md §8: the code the test environment returns is shown in a notice for 10 s. */
export function showTestCode(sent: CodeSent) {
  if (sent.code) void notify('info', t.authForm.testCode(sent.code), TEST_CODE_NOTICE_S);
}
