import {
  SPENDING_CAP_WARN_PERCENT,
  type SpendingCaps,
  type SpendingCapsInput,
  spendingCapsInputSchema,
} from '@gpu/shared/guards';
import { formatMoney } from '@gpu/shared/money';
import { Alert, Button, Card, InputNumber, Progress, Spin } from 'antd';
import { useState } from 'react';
import { PageHeader } from '../../../components/PageHeader';
import { tg } from '../../../locales/zh-CN.guards';
import { useSaveSpendingCaps, useSpendingCaps } from '../api/guards';
import styles from '../components/guards.module.css';
import { IdleFields } from '../components/IdleFields';
import page from './SpendingCapsPage.module.css';

const g = tg;
type Draft = Pick<SpendingCaps, 'dailyCap' | 'monthlyCap' | 'idleDefault'>;

/** Spent so far against a cap: a bar that turns orange at the warning share and red at the cap. */
function SpentBar({
  label,
  spent,
  cap,
  testId,
}: {
  label: string;
  spent: number;
  cap: number | null;
  testId: string;
}) {
  const percent = cap ? Math.min(100, Math.floor((spent / cap) * 100)) : 0;
  const status = cap && spent >= cap ? 'exception' : 'normal';
  return (
    <div className={page.bar} data-testid={testId}>
      <div className={page.barHead}>
        <span>{label}</span>
        <span className={page.amount}>
          {cap ? g.spentOf(formatMoney(spent), formatMoney(cap)) : `${formatMoney(spent)} · ${g.capUnset}`}
        </span>
      </div>
      {cap ? (
        <Progress
          percent={percent}
          status={status}
          strokeColor={percent >= SPENDING_CAP_WARN_PERCENT && status === 'normal' ? '#fa8c16' : undefined}
          showInfo={false}
        />
      ) : null}
    </div>
  );
}

/** /console/spending-caps: the account's daily and monthly caps with what is spent, and the idle default. */
export default function SpendingCapsPage() {
  const query = useSpendingCaps();
  const save = useSaveSpendingCaps();
  const [draft, setDraft] = useState<Draft | null>(null);
  const data = query.data;
  const current: Draft | null =
    draft ??
    (data ? { dailyCap: data.dailyCap, monthlyCap: data.monthlyCap, idleDefault: data.idleDefault } : null);
  const checked = current ? spendingCapsInputSchema.safeParse(current) : null;
  const error = checked && !checked.success ? checked.error.issues[0]?.message : null;
  const set = (patch: Partial<Draft>) => current && setDraft({ ...current, ...patch });
  const submit = () => {
    if (!checked?.success) return;
    save.mutate(checked.data as SpendingCapsInput, { onSuccess: () => setDraft(null) });
  };
  return (
    <div className={page.page}>
      <PageHeader title={g.capsTitle} subtitle={g.capsIntro} />
      {query.isError ? <Alert type="error" title={g.capsLoadFailed} /> : null}
      {!current || !data ? (
        query.isError ? null : (
          <Spin />
        )
      ) : (
        <>
          <Card title={g.capsTitle} data-testid="spending-caps-card">
            <div className={page.bars}>
              <SpentBar
                label={g.spentToday}
                spent={data.spentToday}
                cap={data.dailyCap}
                testId="spent-today"
              />
              <SpentBar
                label={g.spentThisMonth}
                spent={data.spentThisMonth}
                cap={data.monthlyCap}
                testId="spent-month"
              />
            </div>
            <div className={styles.fields}>
              <div className={styles.row}>
                <span>{g.dailyCap}</span>
                <InputNumber
                  min={0.01}
                  precision={2}
                  placeholder={g.noLimit}
                  value={current.dailyCap}
                  onChange={(v) => set({ dailyCap: v })}
                  aria-label={g.dailyCap}
                  data-testid="daily-cap"
                />
              </div>
              <div className={styles.row}>
                <span>{g.monthlyCap}</span>
                <InputNumber
                  min={0.01}
                  precision={2}
                  placeholder={g.noLimit}
                  value={current.monthlyCap}
                  onChange={(v) => set({ monthlyCap: v })}
                  aria-label={g.monthlyCap}
                  data-testid="monthly-cap"
                />
              </div>
            </div>
          </Card>
          <Card title={g.idleDefaultTitle} data-testid="idle-default-card">
            <p className={page.intro}>{g.idleDefaultIntro}</p>
            <IdleFields
              value={current.idleDefault}
              onChange={(idleDefault) => set({ idleDefault })}
              testId="idle-default"
            />
          </Card>
          {error ? (
            <div className={styles.error} role="alert" data-testid="caps-error">
              {error}
            </div>
          ) : null}
          <div>
            <Button
              type="primary"
              onClick={submit}
              disabled={!checked?.success}
              loading={save.isPending}
              data-testid="caps-save"
            >
              {g.save}
            </Button>
          </div>
        </>
      )}
    </div>
  );
}
