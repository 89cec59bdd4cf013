import {
  CaretRightOutlined,
  DeleteOutlined,
  HistoryOutlined,
  PoweroffOutlined,
  RedoOutlined,
} from '@ant-design/icons';
import type { Instance } from '@gpu/shared/instances';
import { Button, Tooltip } from 'antd';
import { t } from '../../../locales/zh-CN';
import { allowedActions, isExpired, type RowAction } from '../instance-status';
import styles from './InstanceActions.module.css';

const i18n = t.instances;

export interface InstanceActionsProps {
  inst: Instance;
  now: Date;
  /** An action of this instance is in flight. */
  busy: boolean;
  onAction: (action: RowAction, inst: Instance) => void;
  /** row: side by side, wrapping; column: stacked (table); block: equal widths filling the line (cards). */
  layout?: 'row' | 'column' | 'block';
}

/** Power off or on, renew (packages), release; each enabled only where its state allows. */
export function InstanceActions({ inst, now, busy, onAction, layout = 'row' }: InstanceActionsProps) {
  const block = layout === 'block';
  if (inst.status === 'FAILED') {
    // A failed create: buy the same settings again, or take the record off the list.
    return (
      <div className={styles[layout]}>
        <Button
          size="small"
          type="primary"
          icon={<RedoOutlined />}
          disabled={busy}
          onClick={() => onAction('recreate', inst)}
          block={block}
        >
          {i18n.recreate}
        </Button>
        <Button
          size="small"
          icon={<DeleteOutlined />}
          disabled={busy}
          onClick={() => onAction('dismiss', inst)}
          block={block}
        >
          {i18n.dismiss}
        </Button>
      </div>
    );
  }
  if (inst.status === 'RELEASED') return <span className={styles.none}>-</span>;
  const allowed = allowedActions(inst, now);
  const expired = inst.status === 'STOPPED' && isExpired(inst, now);
  const showPowerOn = inst.status === 'STOPPED' || inst.status === 'STARTING';
  const power = showPowerOn ? (
    <Tooltip title={expired ? i18n.expiredHint : undefined}>
      <Button
        size="small"
        type="primary"
        ghost
        icon={<CaretRightOutlined />}
        disabled={busy || !allowed.powerOn}
        loading={inst.status === 'STARTING'}
        onClick={() => onAction('powerOn', inst)}
        block={block}
      >
        {i18n.powerOn}
      </Button>
    </Tooltip>
  ) : (
    <Button
      size="small"
      icon={<PoweroffOutlined />}
      disabled={busy || !allowed.powerOff}
      loading={inst.status === 'STOPPING'}
      onClick={() => onAction('powerOff', inst)}
      block={block}
    >
      {i18n.powerOff}
    </Button>
  );
  return (
    <div className={styles[layout]}>
      {power}
      {inst.billingType !== 'hourly' ? (
        <Button
          size="small"
          icon={<HistoryOutlined />}
          disabled={busy || !allowed.renew}
          onClick={() => onAction('renew', inst)}
          block={block}
        >
          {i18n.renew}
        </Button>
      ) : null}
      <Button
        size="small"
        danger
        icon={<DeleteOutlined />}
        disabled={busy || !allowed.release}
        loading={inst.status === 'RELEASING'}
        onClick={() => onAction('release', inst)}
        block={block}
      >
        {i18n.release}
      </Button>
    </div>
  );
}
