import {
  type AutoShutdown,
  type AutoShutdownInput,
  autoShutdownInputSchema,
  IDLE_SETTINGS_DEFAULT,
  type IdleSettings,
  SCHEDULE_HOURS_MAX,
} from '@gpu/shared/guards';
import type { Instance } from '@gpu/shared/instances';
import { formatMoney } from '@gpu/shared/money';
import { formatTime, shanghaiWallTime } from '@gpu/shared/time';
import { Alert, Button, Checkbox, Input, InputNumber, Modal, Radio, Spin } from 'antd';
import { useState } from 'react';
import { t } from '../../../locales/zh-CN';
import { tg } from '../../../locales/zh-CN.guards';
import { useAutoShutdown, useKeepRunning, useSaveAutoShutdown } from '../api/guards';
import styles from './guards.module.css';
import { IdleFields } from './IdleFields';

const g = tg;
type Mode = 'off' | 'at' | 'after';
interface Draft {
  follow: boolean;
  idle: IdleSettings;
  mode: Mode;
  /** `YYYY-MM-DDTHH:mm`, Asia/Shanghai wall time (the platform's time). */
  at: string;
  hours: number | null;
  cap: number | null;
}

const wall = (iso: string) => formatTime(iso, 'YYYY-MM-DD HH:mm').replace(' ', 'T');
const draftOf = (s: AutoShutdown): Draft => ({
  follow: s.idle === null,
  idle: s.idle ?? s.effectiveIdle,
  mode: s.schedule.mode,
  at: s.schedule.at ? wall(s.schedule.at) : '',
  hours: s.schedule.hours,
  cap: s.spendingCap,
});

/** What the draft sends; the shared schema checks it here first (the server checks it again). */
function inputOf(d: Draft): unknown {
  const schedule =
    d.mode === 'at'
      ? { mode: 'at', at: d.at ? shanghaiWallTime(`${d.at}:00`).toISOString() : '' }
      : d.mode === 'after'
        ? { mode: 'after', hours: d.hours }
        : { mode: 'off' };
  return { idle: d.follow ? null : d.idle, schedule, spendingCap: d.cap };
}

/** 自动关机 of one instance: idle auto-shutdown, 定时关机 (at a time or after N hours), its cap. */
export function AutoShutdownDialog({ inst, onClose }: { inst: Instance; onClose: () => void }) {
  const query = useAutoShutdown(inst.id);
  const save = useSaveAutoShutdown(inst.id);
  const keep = useKeepRunning();
  const [draft, setDraft] = useState<Draft | null>(null);
  const current = draft ?? (query.data ? draftOf(query.data) : null);
  const set = (patch: Partial<Draft>) => current && setDraft({ ...current, ...patch });
  const checked = current ? autoShutdownInputSchema.safeParse(inputOf(current)) : null;
  const error = checked && !checked.success ? checked.error.issues[0]?.message : null;
  const hourly = inst.billingType === 'hourly';
  const pending = query.data?.pending ?? null;
  const def = query.data?.effectiveIdle ?? IDLE_SETTINGS_DEFAULT;

  const submit = () => {
    if (!checked?.success) return;
    save.mutate(checked.data as AutoShutdownInput, { onSuccess: onClose });
  };
  return (
    <Modal
      open
      title={g.dialogTitle(inst.name)}
      okText={g.save}
      cancelText={t.common.cancel}
      onOk={submit}
      onCancel={onClose}
      okButtonProps={{
        disabled: !checked?.success,
        loading: save.isPending,
        'data-testid': 'auto-shutdown-save',
      }}
      destroyOnHidden
      width={480}
    >
      {query.isError ? <Alert type="error" title={g.loadFailed} /> : null}
      {!current ? (
        query.isError ? null : (
          <Spin />
        )
      ) : (
        <div data-testid="auto-shutdown-dialog">
          {pending ? (
            <Alert
              type="warning"
              showIcon
              title={
                pending.kind === 'idle'
                  ? g.idleWarning(formatTime(pending.shutdownAt, 'MM-DD HH:mm'))
                  : g.scheduledAt(formatTime(pending.shutdownAt, 'MM-DD HH:mm'))
              }
              action={
                pending.kind === 'idle' ? (
                  <Button size="small" loading={keep.isPending} onClick={() => keep.mutate(inst.id)}>
                    {g.keepRunning}
                  </Button>
                ) : null
              }
            />
          ) : null}
          <section className={styles.section}>
            <div className={styles.sectionTitle}>{g.idleSection}</div>
            <Checkbox
              checked={current.follow}
              onChange={(e) => set({ follow: e.target.checked, idle: current.idle })}
              data-testid="idle-follow"
            >
              {g.idleFollow}
            </Checkbox>
            {current.follow ? (
              <span className={styles.hint}>
                {g.idleFollowHint(g.idleSummary(def.enabled, def.thresholdPercent, def.idleMinutes))}
              </span>
            ) : (
              <IdleFields value={current.idle} onChange={(idle) => set({ idle })} testId="idle" />
            )}
          </section>
          <section className={styles.section}>
            <div className={styles.sectionTitle}>{g.scheduleSection}</div>
            <Radio.Group
              value={current.mode}
              onChange={(e) => set({ mode: e.target.value as Mode })}
              data-testid="schedule-mode"
              options={[
                { value: 'off', label: g.scheduleOff },
                { value: 'at', label: g.scheduleAt },
                { value: 'after', label: g.scheduleAfter },
              ]}
            />
            {current.mode === 'at' ? (
              <div className={styles.row}>
                <span>{g.scheduleAtLabel}</span>
                <Input
                  type="datetime-local"
                  value={current.at}
                  onChange={(e) => set({ at: e.target.value })}
                  style={{ width: 220 }}
                  aria-label={g.scheduleAtLabel}
                  data-testid="schedule-at"
                />
              </div>
            ) : null}
            {current.mode === 'after' ? (
              <div className={styles.row}>
                <span>{g.scheduleHoursLabel}</span>
                <InputNumber
                  min={1}
                  max={SCHEDULE_HOURS_MAX}
                  value={current.hours}
                  onChange={(v) => set({ hours: v === null ? null : Math.trunc(v) })}
                  aria-label={g.scheduleHoursLabel}
                  data-testid="schedule-hours"
                />
              </div>
            ) : null}
          </section>
          <section className={styles.section}>
            <div className={styles.sectionTitle}>{g.capSection}</div>
            {hourly ? (
              <>
                <div className={styles.row}>
                  <span>
                    {g.capLabel}
                    <span className={styles.hint}>{g.capHint}</span>
                  </span>
                  <InputNumber
                    min={0.01}
                    step={1}
                    precision={2}
                    placeholder={g.noLimit}
                    value={current.cap}
                    onChange={(v) => set({ cap: v })}
                    aria-label={g.capLabel}
                    data-testid="instance-cap"
                  />
                </div>
                <span className={styles.hint} data-testid="spent-this-run">
                  {g.spentThisRun(formatMoney(query.data?.spentThisRun ?? 0))}
                </span>
              </>
            ) : (
              <span className={styles.hint}>{g.capPackage}</span>
            )}
          </section>
          {error ? (
            <div className={styles.error} role="alert" data-testid="auto-shutdown-error">
              {error}
            </div>
          ) : null}
        </div>
      )}
    </Modal>
  );
}
