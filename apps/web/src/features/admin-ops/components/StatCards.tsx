import { Card, Statistic } from 'antd';
import type { ReactNode } from 'react';
import styles from './ops.module.css';

export interface StatItem {
  key: string;
  label: ReactNode;
  value: number | string | undefined;
  precision?: number;
  suffix?: ReactNode;
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
            value={s.value ?? 0}
            precision={s.precision}
            suffix={s.suffix}
            styles={s.danger ? { content: { color: '#cf1322' } } : undefined}
          />
        </Card>
      ))}
    </div>
  );
}
