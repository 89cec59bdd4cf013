import { Descriptions, Grid, Table } from 'antd';
import { fieldName, valueName } from './audit-labels';
import styles from './ops.module.css';

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const MAX_DEPTH = 3;

/**
 * A detail value under Chinese names: a primitive as text (coded values named), a list of plain
 * values joined, a list of records as a small table, a record as name–value rows. Deeper than a
 * few levels (rare: a tenant's config) it falls back to JSON.
 */
export function AuditValue({ v, field, depth = 0 }: { v: unknown; field?: string; depth?: number }) {
  const mobile = Grid.useBreakpoint().md === false;
  if (v === null || v === undefined || v === '') return <>-</>;
  if (typeof v !== 'object') return <span className={styles.mono}>{valueName(field, v)}</span>;
  if (depth >= MAX_DEPTH) return <pre className={styles.json}>{JSON.stringify(v, null, 2)}</pre>;
  if (Array.isArray(v)) {
    if (v.length === 0) return <>-</>;
    if (!v.every(isObj))
      return <span className={styles.mono}>{v.map((x) => valueName(field, x)).join('、')}</span>;
    const keys = [...new Set(v.flatMap((x) => Object.keys(x)))];
    return (
      <Table<Obj>
        rowKey={(r) => String(v.indexOf(r))}
        size="small"
        scroll={{ x: 'max-content' }}
        pagination={v.length > 10 ? { pageSize: 10, size: 'small' } : false}
        dataSource={v}
        columns={keys.map((k) => ({
          title: fieldName(k),
          dataIndex: k,
          render: (x: unknown) => <AuditValue v={x} field={k} depth={depth + 1} />,
        }))}
      />
    );
  }
  return (
    <Descriptions column={1} size="small" bordered layout={mobile ? 'vertical' : 'horizontal'}>
      {Object.entries(v).map(([k, x]) => (
        <Descriptions.Item key={k} label={fieldName(k)}>
          <AuditValue v={x} field={k} depth={depth + 1} />
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}
