import { PASSWORD_MAX, PASSWORD_MIN, RESET_PASSWORD_MAX } from './constants.ts';

/**
 * THE statement of a new password's rule (SPEC.md §5): every form's hint (register and change
 * password 6–100, reset 6–16), the validation messages of auth.ts and the strength meter use
 * these words. No zod here, so the web's locale can import it without the schemas.
 */
export const passwordRuleText = (max: number) => `${PASSWORD_MIN}-${max}位，须包含大写字母、小写字母和数字`;

export const passwordRule = {
  /** The hint of register and change password. */
  newPassword: passwordRuleText(PASSWORD_MAX),
  /** The hint of reset password. */
  resetPassword: passwordRuleText(RESET_PASSWORD_MAX),
  /** The strength meter's missing length: the rule's minimum. */
  tooShort: `至少${PASSWORD_MIN}个字符`,
  length: `密码长度为${PASSWORD_MIN}-${PASSWORD_MAX}位`,
  resetLength: `新密码长度为${PASSWORD_MIN}-${RESET_PASSWORD_MAX}位`,
  composition: '密码必须包含大写字母、小写字母和数字',
} as const;
