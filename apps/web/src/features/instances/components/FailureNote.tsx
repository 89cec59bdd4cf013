import type { Instance } from '@gpu/shared/instances';
import { Tag } from 'antd';
import { t } from '../../../locales/zh-CN';
import { failureOf } from '../failure';
import styles from './FailureNote.module.css';

const i18n = t.instances;

/** Why the create failed and what happened to the money, where the access details would be. */
export function FailureNote({ inst }: { inst: Instance }) {
  const f = failureOf(inst);
  return (
    <div className={styles.note} data-testid="failure-note" role="status">
      <span className={styles.title}>{i18n.createFailed}</span>
      <span className={styles.reason} data-testid="failure-reason">
        {f.reason}
      </span>
      <Tag
        color={f.money === i18n.notCharged ? 'default' : 'green'}
        className={styles.money}
        data-testid="failure-money"
      >
        {f.money}
      </Tag>
    </div>
  );
}
