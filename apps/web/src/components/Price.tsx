import { formatYuan } from '@gpu/shared/money';
import styles from './Price.module.css';

export interface PriceProps {
  /** Yuan. */
  value: number;
  /** Shown after the amount, e.g. "/时". */
  unit?: string;
  size?: 'sm' | 'md' | 'lg';
  /** An original price next to a discounted one: muted and struck through. */
  strike?: boolean;
  /** Thousands separators, for large amounts. */
  group?: boolean;
  className?: string;
  testId?: string;
}

/**
 * A yuan amount: "¥" and the figure with two decimals (the shared formatYuan, as everywhere),
 * with an optional unit. A positive price under half a fen (per minute) shows "<0.01", not "0.00".
 */
export function Price({
  value,
  unit,
  size = 'md',
  strike = false,
  group = false,
  className,
  testId,
}: PriceProps) {
  const classes = [styles.price, styles[size], strike ? styles.strike : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  const Tag = strike ? 's' : 'span';
  return (
    <Tag className={classes} data-testid={testId}>
      <span className={styles.currency}>¥</span>
      <span className={styles.amount}>{formatYuan(value, { group, tiny: true })}</span>
      {unit ? <span className={styles.unit}>{unit}</span> : null}
    </Tag>
  );
}
