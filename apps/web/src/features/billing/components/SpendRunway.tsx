import type { BillingMonitorInfo } from '@gpu/shared/bills';
import { formatMoney } from '@gpu/shared/money';
import { t } from '../../../locales/zh-CN';
import { useBillingMonitor } from '../api/get-summary';
import styles from './SpendRunway.module.css';

const o = t.overview;

/** The spend rate as text: "¥1.50/时". */
export const spendRateText = (m: BillingMonitorInfo) => `${formatMoney(m.hourlyBurn)}${t.instances.perHour}`;

/** How long the balance lasts at that rate (the server's hoursLeft), or that nothing is spent. */
export const runwayText = (m: BillingMonitorInfo) =>
  m.estimatedHoursLeft !== null ? o.hoursLeft(m.estimatedHoursLeft) : o.noBurn;

/**
 * One line for a page header: the pay-as-you-go spend rate and the balance's runway at it. Reads
 * the same monitor query as 控制台首页, which instance start/stop/release refresh (money-refresh).
 */
export function SpendRunway() {
  const { data: m } = useBillingMonitor();
  if (!m) return null;
  return (
    <span className={styles.runway} data-testid="spend-runway">
      <span className={styles.rate} data-testid="spend-rate">
        {o.hourlyBurn} {spendRateText(m)}
      </span>
      <span className={styles.left} data-testid="spend-hours-left">
        {runwayText(m)}
      </span>
    </span>
  );
}
