import type { Instance } from '@gpu/shared/instances';
import { formatMoney } from '@gpu/shared/money';
import { formatRemaining, formatTime } from '@gpu/shared/time';
import { Tag } from 'antd';
import { t } from '../../../locales/zh-CN';
import { EXPIRY_WARNING_MS, inNoGpuMode } from '../instance-status';
import styles from './cells.module.css';

const i18n = t.instances;
const SHORT = 'YYYY-MM-DD HH:mm' as const;

export function GpuCell({ inst }: { inst: Instance }) {
  return (
    <div className={styles.stack}>
      <span className={styles.strong}>{i18n.gpu(inst.gpuName, inst.gpuCount)}</span>
      <span className={styles.sub}>{inst.regionName}</span>
      <span className={styles.place}>{inst.hostName}</span>
    </div>
  );
}

/** Billing type and its price: yuan per hour, or the package price per period; optionally the charge so far. */
export function BillingCell({ inst, charged = false }: { inst: Instance; charged?: boolean }) {
  const pkg = inst.billingType !== 'hourly' ? inst.billingType : null;
  // No-GPU mode (issue 30) is charged at its own price while it lasts.
  const noGpu = inNoGpuMode(inst);
  return (
    <div className={styles.stack}>
      <span>
        <Tag color={pkg ? 'purple' : 'blue'} bordered={false} className={styles.billingTag}>
          {i18n.billingType[inst.billingType]}
        </Tag>
      </span>
      <span className={styles.price}>
        {pkg && inst.packagePrice !== null
          ? `${formatMoney(inst.packagePrice)}${i18n.perPeriod[pkg]}`
          : `${formatMoney(noGpu ? (inst.noGpuPrice ?? 0) : inst.hourlyPrice)}${i18n.perHour}`}
      </span>
      {noGpu ? (
        <span className={styles.sub} data-testid="instance-nogpu-billing">
          {i18n.noGpu.billing}
        </span>
      ) : null}
      {charged ? (
        <span className={styles.sub}>
          {i18n.chargedShort} <ChargedCell inst={inst} />
        </span>
      ) : null}
    </div>
  );
}

export function ChargedCell({ inst }: { inst: Instance }) {
  return (
    <span className={styles.money} data-testid="instance-charged">
      {formatMoney(inst.charged)}
    </span>
  );
}

/** Packages: expiry and time left; pay-as-you-go: running since or stopped at. */
export function TimeCell({ inst, now }: { inst: Instance; now: Date }) {
  let main: { label: string; value: string } | null = null;
  let extra: { text: string; tone: 'ok' | 'warn' | 'bad' } | null = null;
  const pkg = inst.billingType !== 'hourly' ? inst.billingType : null;
  if (pkg && inst.expiresAt && inst.status !== 'RELEASED' && inst.status !== 'FAILED') {
    main = { label: i18n.expiresAt, value: formatTime(inst.expiresAt, SHORT) };
    const left = formatRemaining(inst.expiresAt, now);
    const ms = new Date(inst.expiresAt).getTime() - now.getTime();
    extra = left
      ? { text: i18n.remaining(left), tone: ms <= EXPIRY_WARNING_MS[pkg] ? 'warn' : 'ok' }
      : { text: i18n.expired, tone: 'bad' };
  } else if (inst.status === 'RUNNING' && inst.runningSince) {
    main = { label: i18n.runningSince, value: formatTime(inst.runningSince, SHORT) };
  } else if (inst.status === 'STOPPED' && inst.stoppedAt) {
    main = { label: i18n.stoppedAt, value: formatTime(inst.stoppedAt, SHORT) };
  } else if (inst.status === 'RELEASED' && inst.releasedAt) {
    main = { label: i18n.releasedAt, value: formatTime(inst.releasedAt, SHORT) };
  }
  return (
    <div className={styles.stack}>
      {main ? (
        <span className={styles.nowrap} data-testid="instance-time-main">
          <span className={styles.sub}>{main.label} </span>
          {main.value}
        </span>
      ) : null}
      {extra ? <span className={styles[extra.tone]}>{extra.text}</span> : null}
      <span className={styles.sub}>
        {i18n.createdAt} {formatTime(inst.createdAt, SHORT)}
      </span>
    </div>
  );
}
