import { commonErrors, createError } from '../../platform/errors.ts';

export const guardsErrors = {
  released: () =>
    createError({ code: 'guards.released', status: 409, message: '实例已释放，无法设置自动关机' }),
  notRunning: () =>
    createError({ code: 'guards.not_running', status: 409, message: '实例未在运行，无需保持运行' }),
  scheduleInPast: () => commonErrors.badRequest('关机时间（schedule.at）必须晚于当前时间'),
  spendingCapHourlyOnly: () => commonErrors.badRequest('单实例消费上限（spendingCap）仅适用于按量计费实例'),
  dailyOverMonthly: () =>
    commonErrors.badRequest('每日消费上限（dailyCap）不能高于每月消费上限（monthlyCap）'),
};
