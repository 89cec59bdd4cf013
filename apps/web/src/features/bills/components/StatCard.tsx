import { Card, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import styles from './StatCard.module.css';

/** One figure with its label (and an optional icon and note). */
export function StatCard({
  label,
  value,
  icon,
  note,
  loading = false,
  testId,
  extra,
}: {
  label: ReactNode;
  value: ReactNode;
  icon?: ReactNode;
  note?: ReactNode;
  loading?: boolean;
  testId?: string;
  extra?: ReactNode;
}) {
  return (
    <Card className={styles.card} size="small">
      <div className={styles.top}>
        {icon ? <span className={styles.icon}>{icon}</span> : null}
        <span className={styles.label}>{label}</span>
        {extra ? <span className={styles.extra}>{extra}</span> : null}
      </div>
      {loading ? (
        <Skeleton.Input active size="small" className={styles.skeleton} />
      ) : (
        <div className={styles.value} data-testid={testId}>
          {value}
        </div>
      )}
      {note ? <div className={styles.note}>{note}</div> : null}
    </Card>
  );
}
