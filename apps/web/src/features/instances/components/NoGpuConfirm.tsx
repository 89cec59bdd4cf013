import type { Instance } from '@gpu/shared/instances';
import { formatMoney } from '@gpu/shared/money';
import { t } from '../../../locales/zh-CN';
import styles from './NoGpuConfirm.module.css';

const i18n = t.instances.noGpu;

/** What the 无卡模式开机 confirmation says: the price first, then what the mode is for and what it keeps. */
export function NoGpuConfirm({ inst }: { inst: Instance }) {
  return (
    <div className={styles.body} data-testid="nogpu-confirm">
      <div className={styles.price}>
        <span className={styles.label}>{i18n.price}</span>
        <span className={styles.amount} data-testid="nogpu-price">
          {formatMoney(inst.noGpuPrice ?? 0)}
          {i18n.perHour}
        </span>
      </div>
      <p className={styles.text}>{i18n.intro}</p>
      <ul className={styles.uses}>
        {i18n.uses.map((u) => (
          <li key={u}>{u}</li>
        ))}
      </ul>
      <p className={styles.note}>{i18n.share}</p>
      <p className={styles.note}>{i18n.kept}</p>
    </div>
  );
}
