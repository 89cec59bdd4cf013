import {
  CaretRightOutlined,
  DeleteOutlined,
  DownOutlined,
  HistoryOutlined,
  PoweroffOutlined,
  RedoOutlined,
} from '@ant-design/icons';
import type { Instance } from '@gpu/shared/instances';
import { Button, Dropdown, Tooltip } from 'antd';
import { t } from '../../../locales/zh-CN';
import { tg } from '../../../locales/zh-CN.guards';
import {
  allowedActions,
  canClone,
  canPowerOnNoGpu,
  canReset,
  isExpired,
  type RowAction,
} from '../instance-status';
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

/**
 * 更多: the actions used less often (no-GPU power on, reset system, change image, clone, save as
 * image), each enabled only on a powered-off instance; the menu says so beside them otherwise.
 */
function MoreMenu({ inst, busy, onAction, block }: Omit<InstanceActionsProps, 'now'> & { block: boolean }) {
  const stopped = canReset(inst);
  const label = (text: string, ok = stopped) => (ok ? text : `${text}（${i18n.resetNeedsStop}）`);
  const cloneItem = {
    key: 'clone',
    label: label(i18n.clone.action, canClone(inst)),
    disabled: !canClone(inst),
    'data-testid': 'more-clone',
  };
  return (
    <Dropdown
      trigger={['click']}
      disabled={busy || inst.status === 'RESETTING' || inst.status === 'SAVING_IMAGE'}
      menu={{
        items: [
          {
            key: 'autoShutdown',
            label: tg.action,
            disabled: inst.status !== 'RUNNING' && inst.status !== 'STOPPED',
            'data-testid': 'more-auto-shutdown',
          },
          ...(inst.noGpuPrice === null
            ? []
            : [
                {
                  key: 'powerOnNoGpu',
                  label: label(i18n.noGpu.menu),
                  disabled: !canPowerOnNoGpu(inst),
                  'data-testid': 'more-nogpu',
                },
              ]),
          ...(inst.resettable
            ? [
                { key: 'reset', label: label(i18n.reset), disabled: !stopped, 'data-testid': 'more-reset' },
                {
                  key: 'changeImage',
                  label: label(i18n.changeImage),
                  disabled: !stopped,
                  'data-testid': 'more-change-image',
                },
              ]
            : []),
          ...(inst.cloneable ? [cloneItem] : []),
          ...(inst.imageSaveable
            ? [
                {
                  key: 'saveImage',
                  label: label(i18n.saveImage),
                  disabled: !stopped,
                  'data-testid': 'more-save-image',
                },
              ]
            : []),
        ],
        onClick: ({ key }) => onAction(key as RowAction, inst),
      }}
    >
      <Button
        size="small"
        loading={inst.status === 'RESETTING' || inst.status === 'SAVING_IMAGE'}
        block={block}
        data-testid="instance-more"
        aria-label={i18n.more}
      >
        {i18n.more} <DownOutlined />
      </Button>
    </Dropdown>
  );
}

/** Power off or on, renew (packages), release, 更多; each enabled only where its state allows. */
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
      {inst.resettable || inst.cloneable || inst.imageSaveable || inst.noGpuPrice !== null ? (
        <MoreMenu inst={inst} busy={busy} onAction={onAction} block={block} />
      ) : null}
    </div>
  );
}
