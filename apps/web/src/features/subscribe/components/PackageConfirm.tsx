import { packageEnd } from '@gpu/shared/constants';
import { formatMoney } from '@gpu/shared/money';
import type { PackageType } from '@gpu/shared/pricing';
import { formatTime } from '@gpu/shared/time';
import { t } from '../../../locales/zh-CN';
import { orderHours } from '../order-figures';
import styles from './PackageConfirm.module.css';

const c = t.subscribe.confirm;

export interface PackageConfirmProps {
  billingType: PackageType;
  duration: number;
  gpuName: string;
  gpuAmount: number;
  /** What the balance pays, yuan. */
  amount: number;
  /** When the order is confirmed: the package runs from then. */
  from: Date;
}

/** The confirm before a prepaid package takes the money: amount, duration, expiry and the rule at expiry. */
export function PackageConfirm({
  billingType,
  duration,
  gpuName,
  gpuAmount,
  amount,
  from,
}: PackageConfirmProps) {
  const end = packageEnd(billingType, duration, from) as Date;
  const rows: [string, string, string][] = [
    [c.amount, formatMoney(amount), 'confirm-amount'],
    [
      c.duration,
      c.durationValue(duration, t.subscribe.durationUnit[billingType], orderHours(billingType, duration)),
      'confirm-duration',
    ],
    [c.gpus, c.gpusValue(gpuName, gpuAmount), 'confirm-gpus'],
    [c.expiry, c.expiryValue(formatTime(end, 'YYYY-MM-DD HH:mm')), 'confirm-expiry'],
  ];
  return (
    <div className={styles.confirm} data-testid="package-confirm">
      <dl className={styles.facts}>
        {rows.map(([label, value, testId]) => (
          <div key={testId}>
            <dt>{label}</dt>
            <dd data-testid={testId}>{value}</dd>
          </div>
        ))}
      </dl>
      <p className={styles.note}>{c.amountNote}</p>
      <div className={styles.rule} data-testid="confirm-rule">
        <strong>{c.rule}</strong>
        <span>{c.ruleText}</span>
      </div>
    </div>
  );
}
