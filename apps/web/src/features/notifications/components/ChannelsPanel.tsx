import {
  LOW_BALANCE_THRESHOLD_MAX,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_EVENTS,
  type NotificationChannel,
  type NotificationEvent,
  type NotificationSettings,
} from '@gpu/shared/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Checkbox, InputNumber, Skeleton } from 'antd';
import { useEffect, useState } from 'react';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { tmsg } from '../../../locales/zh-CN.messages';
import { tn } from '../../../locales/zh-CN.notifications';
import { notificationKeys } from '../api/keys';
import { saveNotificationSettings, useNotificationSettings } from '../api/settings';
import styles from './ChannelsPanel.module.css';

const n = tmsg;
const s = tn.settings;
type Channels = Record<NotificationEvent, NotificationChannel[]>;

/** 站内信 carries every event: it is always ticked and cannot be unticked. */
const withSite = (list: readonly NotificationChannel[] | undefined): NotificationChannel[] =>
  NOTIFICATION_CHANNELS.filter((c) => c === 'site' || list?.includes(c));

const fill = (from: NotificationSettings['channels']): Channels =>
  Object.fromEntries(NOTIFICATION_EVENTS.map((e) => [e, withSite(from[e])])) as Channels;

/** 通知设置 → 接收方式: events × channels, and the low-balance threshold in yuan. */
export function ChannelsPanel() {
  const settings = useNotificationSettings();
  const queryClient = useQueryClient();
  const [channels, setChannels] = useState<Channels | null>(null);
  const [threshold, setThreshold] = useState<number | null>(null);

  useEffect(() => {
    if (!settings.data) return;
    setChannels(fill(settings.data.channels));
    setThreshold(settings.data.lowBalanceThreshold);
  }, [settings.data]);

  const save = useMutation({
    mutationFn: saveNotificationSettings,
    onSuccess: () => {
      void notify('success', s.saved);
      void queryClient.invalidateQueries({ queryKey: notificationKeys.settings() });
    },
    onError: (err) =>
      void notify('error', failureMessage(err, { failed: s.saveFailed, retry: s.saveFailed })),
  });

  if (settings.isError)
    return (
      <Alert
        type="error"
        showIcon
        title={s.loadFailed}
        action={
          <Button size="small" onClick={() => void settings.refetch()}>
            {n.retry}
          </Button>
        }
        data-testid="settings-load-failed"
      />
    );
  if (!channels) return <Skeleton active paragraph={{ rows: 8 }} />;

  const toggle = (event: NotificationEvent, channel: NotificationChannel, on: boolean) =>
    setChannels((prev) =>
      prev
        ? {
            ...prev,
            [event]: withSite(on ? [...prev[event], channel] : prev[event].filter((c) => c !== channel)),
          }
        : prev,
    );
  const thresholdMissing = threshold === null;

  return (
    <form
      className={styles.form}
      onSubmit={(e) => {
        e.preventDefault();
        if (threshold === null) return;
        save.mutate({ channels, lowBalanceThreshold: threshold });
      }}
      data-testid="notification-settings"
    >
      <div className={styles.scroll}>
        <table className={styles.matrix}>
          <thead>
            <tr>
              <th scope="col">{s.event}</th>
              {NOTIFICATION_CHANNELS.map((c) => (
                <th scope="col" key={c}>
                  {n.channels[c]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {NOTIFICATION_EVENTS.map((event) => (
              <tr key={event} data-testid={`settings-row-${event}`}>
                <th scope="row">{n.events[event]}</th>
                {NOTIFICATION_CHANNELS.map((c) => (
                  <td key={c} data-testid={`channel-${event}-${c}`}>
                    <Checkbox
                      checked={channels[event].includes(c)}
                      disabled={c === 'site'}
                      title={c === 'site' ? s.siteAlways : undefined}
                      aria-label={`${n.events[event]} ${n.channels[c]}`}
                      onChange={(e) => toggle(event, c, e.target.checked)}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className={styles.note}>{s.siteAlways}</p>
      <div className={styles.threshold}>
        <label htmlFor="low-balance-threshold">{s.threshold}</label>
        <InputNumber<number>
          id="low-balance-threshold"
          min={0}
          max={LOW_BALANCE_THRESHOLD_MAX}
          step={1}
          precision={2}
          value={threshold}
          onChange={(v) => setThreshold(v)}
          status={thresholdMissing ? 'error' : undefined}
          className={styles.thresholdInput}
          data-testid="low-balance-threshold"
        />
        <span
          className={thresholdMissing ? styles.error : styles.hint}
          role={thresholdMissing ? 'alert' : undefined}
        >
          {thresholdMissing ? s.thresholdRequired : s.thresholdHint}
        </span>
      </div>
      <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="settings-save">
        {s.save}
      </Button>
    </form>
  );
}
