import { EditOutlined } from '@ant-design/icons';
import type { Instance } from '@gpu/shared/instances';
import { Button, Tooltip } from 'antd';
import { t } from '../../../locales/zh-CN';
import styles from './cells.module.css';

const i18n = t.instances;

/** The name on one line (ellipsis, the whole name in a tooltip) and its rename button. */
export function InstanceName({
  inst,
  className,
  onRename,
}: {
  inst: Instance;
  className?: string;
  onRename?: (inst: Instance) => void;
}) {
  const renamable = onRename && inst.status !== 'RELEASED' && inst.status !== 'FAILED';
  return (
    <span className={styles.nameLine}>
      <Tooltip title={inst.name} placement="topLeft">
        <span className={className ?? styles.name} data-testid="instance-name">
          {inst.name}
        </span>
      </Tooltip>
      {renamable ? (
        <Tooltip title={i18n.rename}>
          <Button
            type="text"
            size="small"
            className={styles.rename}
            icon={<EditOutlined />}
            aria-label={i18n.rename}
            data-testid="rename-open"
            onClick={() => onRename(inst)}
          />
        </Tooltip>
      ) : null}
    </span>
  );
}

export function NameCell({ inst, onRename }: { inst: Instance; onRename?: (inst: Instance) => void }) {
  return (
    <div className={styles.stack}>
      <InstanceName inst={inst} onRename={onRename} />
      <span className={styles.sub} title={inst.image} data-testid="instance-id">
        #{inst.id} · {inst.image.replace(/^.*\//, '')}
      </span>
    </div>
  );
}
