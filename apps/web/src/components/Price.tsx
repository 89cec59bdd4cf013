import styles from './Price.module.css';
import { formatPrice } from './price';

export interface PriceProps {
  /** Yuan. */
  value: number;
  /** Shown after the amount, e.g. "/时". */
  unit?: string;
  size?: 'sm' | 'md' | 'lg';
  /** An original price next to a discounted one: muted and struck through. */
  strike?: boolean;
  minDecimals?: number;
  /** Thousands separators, for large amounts. */
  group?: boolean;
  className?: string;
  testId?: string;
}

/** A yuan amount: "¥" and the figure, with an optional unit. */
export function Price({
  value,
  unit,
  size = 'md',
  strike = false,
  minDecimals,
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
      <span className={styles.amount}>{formatPrice(value, minDecimals, group)}</span>
      {unit ? <span className={styles.unit}>{unit}</span> : null}
    </Tag>
  );
}
