import type { Instance } from '@gpu/shared/instances';
import { t } from '../../locales/zh-CN';

const i18n = t.instances;

/**
 * The server's stopReason of a failed create is '创建失败：<why>，<money>' (failure.usecases.ts):
 * money is 未扣费 (pay-as-you-go charges nothing before RUNNING) or 费用已全额退回 (packages).
 */
export function failureOf(inst: Pick<Instance, 'stopReason' | 'billingType'>) {
  const text = (inst.stopReason ?? '').replace(/^创建失败[：:]\s*/, '');
  const notCharged = /未扣费$/.test(text) || (!/退/.test(text) && inst.billingType === 'hourly');
  const reason = text.replace(/[，,]\s*(未扣费|费用已全额退回)$/, '').trim() || i18n.failedReasonUnknown;
  return { reason, money: notCharged ? i18n.notCharged : i18n.refunded };
}

export const failureText = (inst: Pick<Instance, 'stopReason' | 'billingType'>) => {
  const f = failureOf(inst);
  return `${f.reason}，${f.money}`;
};
