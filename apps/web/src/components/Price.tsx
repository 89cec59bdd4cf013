import { formatMoney, formatYuan } from '@gpu/shared/money';
import styles from './Price.module.css';

export interface PriceProps {
  /** Yuan. */
  value: number;
  /** Shown after the amount, e.g. "/时". */
  unit?: string;
  size?: 'sm' | 'md' | 'lg';
  /** An original price next to a discounted one: muted and struck through. */
  strike?: boolean;
  className?: string;
  testId?: string;
}

/**
 * A yuan amount as formatMoney writes it ("¥1,000.00": the shared formatter's grouping and two
 * decimals), with the "¥" styled apart and an optional unit. A positive price under half a fen
 * (per minute) shows "<0.01", not "0.00".
 */
export function Price({ value, unit, size = 'md', strike = false, className, testId }: PriceProps) {
  const classes = [styles.price, styles[size], strike ? styles.strike : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  const Tag = strike ? 's' : 'span';
  return (
    <Tag className={classes} data-testid={testId}>
      <span className={styles.currency}>¥</span>
      <span className={styles.amount}>{formatYuan(value, { group: true, tiny: true })}</span>
      {unit ? <span className={styles.unit}>{unit}</span> : null}
    </Tag>
  );
}

/**
 * formatMoney's text with its "¥" in a <small> (a figure set large, e.g. a balance or a preset):
 * "-" and "¥" stay in front, the digits are formatMoney's own.
 */
export function MoneyFigure({ value }: { value: number }) {
  const text = formatMoney(value);
  const negative = text.startsWith('-');
  return (
    <>
      {negative ? '-' : null}
      <small>¥</small>
      {text.slice(negative ? 2 : 1)}
    </>
  );
}
