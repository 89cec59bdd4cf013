import { Button } from 'antd';
import type { ReactNode } from 'react';
import { ta } from '../../../locales/zh-CN.admin';
import styles from './admin.module.css';

const c = ta.adminCatalogue;

/** The catalogue tables' last column: 编辑, then the row's other actions, kept on one line. */
export function actionsColumn<T>(onEdit: (row: T) => void, more: (row: T) => ReactNode) {
  return {
    title: c.actions,
    key: 'actions',
    render: (_: unknown, row: T) => (
      <span className={styles.nowrap}>
        <Button type="link" size="small" onClick={() => onEdit(row)}>
          {c.edit}
        </Button>
        {more(row)}
      </span>
    ),
  };
}
