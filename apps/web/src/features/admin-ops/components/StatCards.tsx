import { formatMoney } from '@gpu/shared/money';
import { Card, Statistic } from 'antd';
import type { ReactNode } from 'react';
import styles from './ops.module.css';

export interface StatItem {
  key: string;
  label: ReactNode;
  value: number | string | undefined;
  precision?: number;
  suffix?: ReactNode;
  /** Yuan, shown as formatMoney writes it (¥1,000.00), like every amount. */
  money?: boolean;
  danger?: boolean;
}

/** The figures above a back-office table (antd Pro's statistic cards). */
export function StatCards({ items, loading }: { items: StatItem[]; loading?: boolean }) {
  return (
    <div className={styles.stats}>
      {items.map((s) => (
        <Card
          key={s.key}
          size="small"
          loading={loading}
          className={styles.stat}
          data-testid={`stat-${s.key}`}
        >
          <Statistic
            title={s.label}
            // A string that is not a plain number is shown as it is (antd formats only numbers).
            value={s.money ? formatMoney(Number(s.value ?? 0)) : (s.value ?? 0)}
            precision={s.money ? undefined : s.precision}
            suffix={s.suffix}
            styles={s.danger ? { content: { color: '#cf1322' } } : undefined}
          />
        </Card>
      ))}
    </div>
  );
}
