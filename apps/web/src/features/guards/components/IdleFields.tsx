import {
  GUARD_WARN_MINUTES_MAX,
  IDLE_MINUTES_MAX,
  IDLE_MINUTES_MIN,
  type IdleSettings,
} from '@gpu/shared/guards';
import { InputNumber, Switch } from 'antd';
import { tg } from '../../../locales/zh-CN.guards';
import styles from './guards.module.css';

const g = tg;

/** The idle settings' fields (an instance's own, or the account default). */
export function IdleFields({
  value,
  onChange,
  testId,
}: {
  value: IdleSettings;
  onChange: (next: IdleSettings) => void;
  testId: string;
}) {
  const set = (patch: Partial<IdleSettings>) => onChange({ ...value, ...patch });
  const num = (v: number | null) => (v === null ? 0 : Math.trunc(v));
  return (
    <div className={styles.fields} data-testid={testId}>
      <div className={styles.row}>
        <span>{g.idleEnabled}</span>
        <Switch
          checked={value.enabled}
          onChange={(enabled) => set({ enabled })}
          aria-label={g.idleEnabled}
          data-testid={`${testId}-enabled`}
        />
      </div>
      <div className={styles.row}>
        <span>{g.threshold}</span>
        <InputNumber
          min={1}
          max={100}
          value={value.thresholdPercent}
          disabled={!value.enabled}
          onChange={(v) => set({ thresholdPercent: num(v) })}
          aria-label={g.threshold}
          data-testid={`${testId}-threshold`}
        />
      </div>
      <div className={styles.row}>
        <span>
          {g.idleMinutes}
          <span className={styles.hint}>{g.idleMinutesHint}</span>
        </span>
        <InputNumber
          min={IDLE_MINUTES_MIN}
          max={IDLE_MINUTES_MAX}
          step={10}
          value={value.idleMinutes}
          disabled={!value.enabled}
          onChange={(v) => set({ idleMinutes: num(v) })}
          aria-label={g.idleMinutes}
          data-testid={`${testId}-minutes`}
        />
      </div>
      <div className={styles.row}>
        <span>{g.warnMinutes}</span>
        <InputNumber
          min={1}
          max={GUARD_WARN_MINUTES_MAX}
          value={value.warnMinutes}
          disabled={!value.enabled}
          onChange={(v) => set({ warnMinutes: num(v) })}
          aria-label={g.warnMinutes}
          data-testid={`${testId}-warn`}
        />
      </div>
    </div>
  );
}
