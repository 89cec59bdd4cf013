import type { ReactNode } from 'react';
import { StatCard, StatGrid } from '../../../components/StatCard';

export interface StatItem {
  key: string;
  label: ReactNode;
  value: number | string | undefined;
  precision?: number;
  suffix?: ReactNode;
  danger?: boolean;
}

const figure = (s: StatItem) =>
  typeof s.value === 'number'
    ? s.value.toLocaleString('zh-CN', {
        minimumFractionDigits: s.precision,
        maximumFractionDigits: s.precision,
      })
    : (s.value ?? 0);

/** The figures above a back-office table, in the stat cards the console uses. */
export function StatCards({ items, loading }: { items: StatItem[]; loading?: boolean }) {
  return (
    <StatGrid>
      {items.map((s) => (
        <div key={s.key} data-testid={`stat-${s.key}`}>
          <StatCard
            label={s.label}
            testId={`stat-${s.key}-value`}
            loading={loading}
            danger={s.danger}
            value={figure(s)}
            unit={s.suffix}
          />
        </div>
      ))}
    </StatGrid>
  );
}
