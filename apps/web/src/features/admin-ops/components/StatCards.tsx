import { formatMoney } from '@gpu/shared/money';
import type { ReactNode } from 'react';
import { ComputedAt } from '../../../components/admin/ComputedAt';
import { StatCard, StatGrid } from '../../../components/StatCard';

export interface StatItem {
  key: string;
  label: ReactNode;
  value: number | string | undefined;
  suffix?: ReactNode;
  /** Yuan, shown as formatMoney writes it (¥1,000.00), like every amount. */
  money?: boolean;
  danger?: boolean;
}

const figure = (s: StatItem) => (s.money ? formatMoney(Number(s.value ?? 0)) : (s.value ?? 0));

/**
 * The figures above a back-office table, in the stat cards the console uses; with the time the
 * server computed them when it reuses them for a while (issue 33), so their age is never hidden.
 */
export function StatCards({
  items,
  loading,
  computedAt,
}: {
  items: StatItem[];
  loading?: boolean;
  computedAt?: string;
}) {
  const cards = (
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
  if (!computedAt) return cards;
  return (
    <div>
      {cards}
      <ComputedAt at={computedAt} testId="stats-computed-at" />
    </div>
  );
}
