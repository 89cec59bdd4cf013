import { formatMoney } from '@gpu/shared/money';
import type { OpsDashboard } from '@gpu/shared/ops-dashboard';
import { formatTime } from '@gpu/shared/time';
import { Button, Empty, Segmented } from 'antd';
import { useState } from 'react';
import { ta } from '../../../../locales/zh-CN.admin';
import styles from './dashboard.module.css';

const d = ta.adminDashboard;

interface Occupancy {
  key: string;
  name: string;
  meta?: string;
  total: number;
  free: number;
  occupied: number;
  reserved: number;
}

const none = (text: string) => <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text} />;

/** GPUs per model or per host as one stacked bar each: occupied, reserved, free. */
export function OccupancyPanel({ data }: { data: OpsDashboard }) {
  const [by, setBy] = useState<'model' | 'host'>('model');
  const rows: Occupancy[] =
    by === 'model'
      ? data.occupancyByModel.map((m) => ({ key: m.model, name: m.model, ...m }))
      : data.occupancyByHost.map((h) => ({
          key: String(h.hostId),
          name: h.hostName,
          meta: h.regionName,
          ...h,
        }));
  const pct = (n: number, total: number) => `${total ? (n / total) * 100 : 0}%`;
  return (
    <>
      <div className={styles.toolbar} style={{ justifyContent: 'space-between', marginBottom: 8 }}>
        <div className={styles.legend} style={{ margin: 0 }}>
          {(['occupied', 'reserved', 'free'] as const).map((k) => (
            <span key={k}>
              <span className={`${styles.dot} ${styles[k]}`} />
              {d[k]}
            </span>
          ))}
        </div>
        <Segmented
          size="small"
          value={by}
          onChange={(v) => setBy(v as 'model' | 'host')}
          options={[
            { value: 'model', label: d.byModel },
            { value: 'host', label: d.byHost },
          ]}
          data-testid="occupancy-by"
        />
      </div>
      {rows.length === 0 ? (
        none(d.noGpus)
      ) : (
        <ul className={`${styles.list} ${styles.scroll}`} data-testid="occupancy-list">
          {rows.map((r) => (
            <li key={r.key} className={styles.item} data-testid="occupancy-row">
              <div className={styles.main}>
                <div className={styles.name} title={r.name}>
                  {r.name}
                  {r.meta ? <span className={styles.meta}> · {r.meta}</span> : null}
                </div>
                <div className={styles.meta}>{d.occupancyLine(r.occupied, r.reserved, r.free, r.total)}</div>
                <div className={styles.bar} aria-hidden>
                  <span className={styles.occupied} style={{ width: pct(r.occupied, r.total) }} />
                  <span className={styles.reserved} style={{ width: pct(r.reserved, r.total) }} />
                  <span className={styles.free} style={{ width: pct(r.free, r.total) }} />
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The latest failed creates of the period: who, what, when and why. */
export function FailedPanel({ data }: { data: OpsDashboard['failedCreates'] }) {
  if (data.latest.length === 0) return none(d.noFailed);
  return (
    <ul className={styles.list} data-testid="failed-list">
      {data.latest.map((f) => (
        <li key={f.instanceId} className={styles.item} data-testid="failed-row">
          <div className={styles.main}>
            <div className={styles.name} title={f.instanceName}>
              {f.instanceName} <span className={styles.meta}>#{f.instanceId}</span>
            </div>
            <div className={styles.meta}>
              {f.phone} · {f.tenantName} · {f.hostName} · {f.gpuModel}
            </div>
            <div className={styles.meta}>
              {d.failedAt} {formatTime(f.failedAt)}
            </div>
            <div className={styles.reason}>{f.reason ?? d.noReason}</div>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Active hosts the market sync has not reached lately, with the last probe in Shanghai time. */
export function StalePanel({ data }: { data: OpsDashboard['staleHosts'] }) {
  if (data.list.length === 0) return none(d.noStale);
  return (
    <ul className={styles.list} data-testid="stale-list">
      {data.list.map((h) => (
        <li key={h.hostId} className={styles.item} data-testid="stale-row">
          <div className={styles.main}>
            <div className={styles.name} title={h.hostName}>
              {h.hostName} <span className={styles.meta}>· {h.regionName}</span>
            </div>
            <div className={styles.meta}>
              {d.lastSeen} {h.lastProbeAt ? formatTime(h.lastProbeAt) : d.neverSeen}
            </div>
            {h.lastProbeOk === false ? (
              <div className={styles.reason}>{d.probeFailed(h.lastProbeError ?? '-')}</div>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Users under the balance threshold, lowest first, each one click from 调整余额. */
export function LowBalancePanel({
  data,
  onAdjust,
}: {
  data: OpsDashboard['lowBalance'];
  onAdjust: (user: { id: number; phone: string }) => void;
}) {
  if (data.list.length === 0) return none(d.noLow);
  return (
    <ul className={styles.list} data-testid="low-list">
      {data.list.map((u) => (
        <li key={u.userId} className={styles.item} data-testid="low-row">
          <div className={styles.main}>
            <div className={styles.name}>{u.phone}</div>
            <div className={styles.meta}>
              {u.username} · {u.tenantName}
            </div>
          </div>
          <span className={styles.money}>{formatMoney(u.available)}</span>
          <Button
            size="small"
            onClick={() => onAdjust({ id: u.userId, phone: u.phone })}
            data-testid="low-adjust"
          >
            {d.adjust}
          </Button>
        </li>
      ))}
    </ul>
  );
}
