import { requestEnvelope } from '../../../lib/api-client';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import type { LoginResponse } from '../../../lib/session';
import { replaceUserSession } from '../../../lib/stored-session';
import { t } from '../../../locales/zh-CN';

export interface ChangePasswordRequest {
  oldPassword: string;
  newPassword: string;
}

/**
 * POST /auth/change-password (validate with changePasswordRequestSchema of @gpu/shared). The
 * server revokes the other sessions and answers a fresh one, which replaces the stored session.
 * Shows the success or failure message (修改密码失败) and answers whether it worked.
 */
export async function changePassword(body: ChangePasswordRequest): Promise<boolean> {
  try {
    const answer = await requestEnvelope<LoginResponse>('POST', '/auth/change-password', { body });
    replaceUserSession(answer.data.accessToken, answer.data.user);
    void notify('success', answer.message || t.account.changePasswordSuccess);
    return true;
  } catch (err) {
    const failed = t.account.changePasswordFailed;
    void notify('error', failureMessage(err, { failed, retry: failed }));
    return false;
  }
}
