import { Card, Skeleton } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import styles from './StatCard.module.css';

/** One figure with its label (and an optional icon and note): the one stat card of console and admin. */
export function StatCard({
  label,
  value,
  icon,
  note,
  loading = false,
  testId,
  extra,
  danger = false,
  unit,
}: {
  label: ReactNode;
  value: ReactNode;
  icon?: ReactNode;
  note?: ReactNode;
  loading?: boolean;
  testId?: string;
  extra?: ReactNode;
  /** A figure that needs attention (users in arrears, failures). */
  danger?: boolean;
  /** Shown after the figure, smaller (实例 个, 元, 小时). */
  unit?: ReactNode;
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
        <div
          className={danger ? `${styles.value} ${styles.danger}` : styles.value}
          data-testid={testId}
          data-stat-value
        >
          {value}
          {unit ? <span className={styles.unit}>{unit}</span> : null}
        </div>
      )}
      {note ? <div className={styles.note}>{note}</div> : null}
    </Card>
  );
}

/** Lays stat cards out in a row that wraps (four across on a desktop, two on a phone). */
export function StatGrid({
  children,
  testId,
  minWidth = 180,
}: {
  children: ReactNode;
  testId?: string;
  /** A card's narrowest width: short figures (counts) may sit eight to a row. */
  minWidth?: number;
}) {
  return (
    <div
      className={styles.grid}
      data-testid={testId}
      style={{ '--stat-min': `${minWidth}px` } as CSSProperties}
    >
      {children}
    </div>
  );
}
