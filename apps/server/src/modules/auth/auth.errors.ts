import { createError } from '../../platform/errors.ts';

export const authErrors = {
  badCredentials: () =>
    createError({ code: 'auth.bad_credentials', status: 401, message: '手机号或密码错误' }),
  badAdminCredentials: () =>
    createError({ code: 'auth.bad_admin_credentials', status: 401, message: '用户名或密码错误' }),
  disabled: () => createError({ code: 'auth.disabled', status: 403, message: '账号已被禁用，请联系客服' }),
  tooManyFailures: (minutes: number) =>
    createError({
      code: 'auth.too_many_failures',
      status: 429,
      message: `登录失败次数过多，请${minutes}分钟后再试`,
    }),
  tooManyPasswordFailures: (minutes: number) =>
    createError({
      code: 'auth.too_many_password_failures',
      status: 429,
      message: `密码错误次数过多，请${minutes}分钟后再试`,
    }),
  phoneTaken: () =>
    createError({ code: 'auth.phone_taken', status: 409, message: '该手机号已注册，请直接登录' }),
  codeWrong: () => createError({ code: 'auth.code_wrong', status: 400, message: '验证码错误' }),
  codeExpired: () =>
    createError({ code: 'auth.code_expired', status: 400, message: '验证码已过期或不存在，请重新获取' }),
  codeBurnt: () =>
    createError({ code: 'auth.code_burnt', status: 400, message: '验证码错误次数过多，已失效，请重新获取' }),
  codeCooldown: (seconds: number) =>
    createError({
      code: 'auth.code_cooldown',
      status: 429,
      message: `验证码发送过于频繁，请${seconds}秒后再试`,
    }),
  codeDailyCap: () =>
    createError({
      code: 'auth.code_daily_cap',
      status: 429,
      message: '今日验证码发送次数已达上限，请明天再试',
    }),
  smsFailed: () => createError({ code: 'auth.sms_failed', status: 502, message: '短信发送失败，请稍后重试' }),
  refreshInvalid: () =>
    createError({ code: 'auth.refresh_invalid', status: 401, message: '登录已失效，请重新登录' }),
  oldPasswordWrong: () =>
    createError({ code: 'auth.old_password_wrong', status: 400, message: '原密码错误' }),
  currentPasswordWrong: () =>
    createError({ code: 'auth.current_password_wrong', status: 400, message: '当前密码错误' }),
  samePhone: () => createError({ code: 'auth.same_phone', status: 400, message: '新手机号与当前手机号相同' }),
  emailInvalid: () =>
    createError({
      code: 'auth.email_invalid',
      status: 400,
      message: '参数 email 无效：请输入正确的邮箱地址',
    }),
};
