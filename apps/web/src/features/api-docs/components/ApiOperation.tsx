import { Table, type TableProps, Tag } from 'antd';
import { tapi } from '../../../locales/zh-CN.api';
import type { DocBody, DocError, DocField, DocOperation, DocParameter } from '../openapi';
import styles from './ApiOperation.module.css';
import { JsonBlock } from './JsonBlock';

const s = tapi.docs;

const METHOD_CLASS: Record<string, string | undefined> = {
  GET: styles.get,
  POST: styles.post,
  PUT: styles.put,
  PATCH: styles.patch,
  DELETE: styles.delete,
};

export const MethodBadge = ({ method }: { method: string }) => (
  <span className={`${styles.method} ${METHOD_CLASS[method] ?? ''}`}>{method}</span>
);

/** What a token needs for the operation; session-only operations in red. */
export function AccessTag({ operation }: { operation: DocOperation }) {
  const { access } = operation;
  if (!access) return null;
  const color =
    access === 'session' ? 'red' : access === 'read' ? 'default' : access === 'billing' ? 'gold' : 'blue';
  return (
    <Tag color={color} className={styles.access}>
      {s.accessLabels[access]}
    </Tag>
  );
}

const yesNo = (v: boolean) => (v ? s.yes : s.no);
const Code = ({ children }: { children: string }) => <code className={styles.code}>{children}</code>;

const PARAM_COLUMNS: TableProps<DocParameter>['columns'] = [
  { title: s.paramName, dataIndex: 'name', render: (v: string) => <Code>{v}</Code> },
  { title: s.paramIn, dataIndex: 'in', render: (v: string) => s.paramInNames[v] ?? v },
  { title: s.paramRequired, dataIndex: 'required', render: yesNo },
  { title: s.paramType, dataIndex: 'type', render: (v: string) => <Code>{v}</Code> },
  { title: s.paramDescription, dataIndex: 'description' },
];

const FIELD_COLUMNS: TableProps<DocField>['columns'] = PARAM_COLUMNS.filter(
  (c) => c.title !== s.paramIn,
) as TableProps<DocField>['columns'];

const ERROR_COLUMNS: TableProps<DocError>['columns'] = [
  { title: s.errorStatus, dataIndex: 'status', width: 100 },
  { title: s.errorCode, dataIndex: 'errorCode', render: (v: string) => (v ? <Code>{v}</Code> : '-') },
  { title: s.errorMessage, dataIndex: 'message' },
];

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className={styles.section}>
      <h4>{title}</h4>
      {children}
    </section>
  );
}

function small<T extends object>(
  rows: T[],
  columns: TableProps<T>['columns'],
  rowKey: (r: T) => string,
  testId: string,
) {
  return (
    <Table<T>
      size="small"
      rowKey={rowKey}
      columns={columns}
      dataSource={rows}
      pagination={false}
      scroll={{ x: 'max-content' }}
      data-testid={testId}
    />
  );
}

function Body({
  body,
  exampleTitle,
  fieldsTitle,
  testId,
}: {
  body: DocBody;
  exampleTitle: string;
  fieldsTitle: string;
  testId: string;
}) {
  if (!body) return null;
  if ('example' in body)
    return (
      <Section title={exampleTitle}>
        <JsonBlock value={body.example} testId={testId} />
      </Section>
    );
  return (
    <Section title={fieldsTitle}>
      {small(body.fields, FIELD_COLUMNS, (f) => f.name, `${testId}-fields`)}
    </Section>
  );
}

/** One operation's details: description, access, parameters, bodies, errors. */
export function ApiOperation({ operation }: { operation: DocOperation }) {
  const op = operation;
  return (
    <div className={styles.detail} data-testid={`api-op-detail-${op.key}`}>
      {op.description && op.description !== op.summary ? (
        <p className={styles.description}>{op.description}</p>
      ) : null}
      <p className={styles.accessLine}>
        <span>{s.access}：</span>
        {op.access ? <AccessTag operation={op} /> : <span className={styles.muted}>{s.accessUnknown}</span>}
      </p>
      {op.parameters.length > 0 ? (
        <Section title={s.parameters}>
          {small(op.parameters, PARAM_COLUMNS, (p) => `${p.in}:${p.name}`, 'api-op-params')}
        </Section>
      ) : null}
      <Body
        body={op.request}
        exampleTitle={s.requestBody}
        fieldsTitle={s.requestFields}
        testId="api-op-request"
      />
      <Body
        body={op.response}
        exampleTitle={s.response}
        fieldsTitle={s.responseFields}
        testId="api-op-response"
      />
      {op.sample ? (
        <Section title={s.sample}>
          <JsonBlock value={op.sample} testId="api-op-sample" />
        </Section>
      ) : null}
      {op.errors.length > 0 ? (
        <Section title={s.errors}>
          {small(op.errors, ERROR_COLUMNS, (e) => `${e.status}:${e.errorCode}:${e.message}`, 'api-op-errors')}
        </Section>
      ) : null}
    </div>
  );
}
