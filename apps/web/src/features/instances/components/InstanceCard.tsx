import type { Instance } from '@gpu/shared/instances';
import { Card } from 'antd';
import { t } from '../../../locales/zh-CN';
import { GuardMarker } from '../../guards';
import { canMonitor, inNoGpuMode, instanceNotice, type RowAction } from '../instance-status';
import { AccessInfo } from './AccessInfo';
import { BillingCell, ChargedCell, GpuCell, TimeCell } from './cells';
import { FailureNote } from './FailureNote';
import { InstanceActions } from './InstanceActions';
import styles from './InstanceCard.module.css';
import { InstanceName } from './InstanceName';
import { noticeText } from './InstanceNotices';
import { MonitorCell } from './MonitorCell';
import { StatusTag } from './StatusTag';

const c = t.instances.columns;

/** Mobile: one card per instance, the same facts and actions as a table row. */
export function InstanceCard({
  inst,
  now,
  busy,
  onAction,
  sparklines,
}: {
  inst: Instance;
  now: Date;
  busy: boolean;
  onAction: (action: RowAction, inst: Instance) => void;
  sparklines?: ReadonlyMap<string, number[]>;
}) {
  const notice = instanceNotice(inst, now);
  // Released: nothing to reach and nothing to do; the card is a record.
  const gone = inst.status === 'RELEASED';
  const failed = inst.status === 'FAILED';
  return (
    <Card size="small" className={styles.card} data-testid={`instance-card-${inst.id}`}>
      <div className={styles.head}>
        <div className={styles.title}>
          <InstanceName inst={inst} className={styles.name} onRename={(i) => onAction('rename', i)} />
          <span className={styles.id} data-testid="instance-id">
            #{inst.id}
          </span>
        </div>
        <StatusTag status={inst.status} noGpu={inNoGpuMode(inst)} />
      </div>
      {notice ? <div className={styles[notice.level]}>{noticeText(notice)}</div> : null}
      <GuardMarker inst={inst} />
      <dl className={styles.facts}>
        <dt>{c.gpu}</dt>
        <dd>
          <GpuCell inst={inst} />
        </dd>
        <dt>{c.billing}</dt>
        <dd>
          <BillingCell inst={inst} />
        </dd>
        <dt>{c.charged}</dt>
        <dd>
          <ChargedCell inst={inst} />
        </dd>
        <dt>{c.time}</dt>
        <dd>
          <TimeCell inst={inst} now={now} />
        </dd>
        {canMonitor(inst) ? (
          <>
            <dt>{c.monitor}</dt>
            <dd>
              <MonitorCell inst={inst} sparklines={sparklines} onAction={onAction} />
            </dd>
          </>
        ) : null}
      </dl>
      {failed ? (
        <>
          <div className={styles.access}>
            <FailureNote inst={inst} />
          </div>
          <InstanceActions inst={inst} now={now} busy={busy} onAction={onAction} layout="block" />
        </>
      ) : null}
      {gone || failed ? null : (
        <>
          <div className={styles.access}>
            <AccessInfo inst={inst} onConnect={(i) => onAction('connect', i)} />
          </div>
          <InstanceActions inst={inst} now={now} busy={busy} onAction={onAction} layout="block" />
        </>
      )}
    </Card>
  );
}
