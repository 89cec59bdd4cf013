import { AlipayCircleFilled, CheckOutlined } from '@ant-design/icons';
import type { PaymentType } from '@gpu/shared/payments';
import { t } from '../../../locales/zh-CN';
import styles from './RechargeForm.module.css';

const r = t.recharge;

/** SPEC.md §2: the payment method; Alipay is the only one. */
export function PaymentMethodPicker({
  value,
  onChange,
}: {
  value: PaymentType | null;
  onChange: (method: PaymentType) => void;
}) {
  const selected = value === 'alipay';
  return (
    <div className={styles.methods} role="radiogroup" aria-label={r.methodLabel}>
      {/* biome-ignore lint/a11y/useSemanticElements: a card-like choice; the radio role keeps it announced as one */}
      <button
        type="button"
        role="radio"
        aria-checked={selected}
        className={`${styles.option} ${styles.method} ${selected ? styles.selected : ''}`}
        onClick={() => onChange('alipay')}
        data-testid="recharge-method-alipay"
      >
        <AlipayCircleFilled className={styles.alipayIcon} />
        <span className={styles.methodText}>
          <span className={styles.methodName}>{r.alipay}</span>
          <span className={styles.methodHint}>{r.alipayHint}</span>
        </span>
        {selected && (
          <span className={styles.check} aria-hidden>
            <CheckOutlined />
          </span>
        )}
      </button>
    </div>
  );
}
