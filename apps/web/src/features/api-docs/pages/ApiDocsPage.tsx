import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Alert, Button, Collapse, Empty, Input, Skeleton } from 'antd';
import { useDeferredValue, useMemo, useState } from 'react';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { ApiError } from '../../../lib/api-client';
import { PATHS } from '../../../lib/routing/paths';
import { tapi } from '../../../locales/zh-CN.api';
import { useApiDocument } from '../api/docs';
import { AccessTag, ApiOperation, MethodBadge } from '../components/ApiOperation';
import { Markdown } from '../components/Markdown';
import { type DocGroup, filterGroups, groupOperations, UNTAGGED } from '../openapi';
import styles from './ApiDocsPage.module.css';

const s = tapi.docs;

function Group({ group }: { group: DocGroup }) {
  const name = group.name === UNTAGGED ? s.untagged : group.name;
  return (
    <section className={styles.group} data-testid={`api-group-${group.name || 'untagged'}`}>
      <header className={styles.groupHead}>
        <h2>{name}</h2>
        <span className={styles.count}>{s.count(group.operations.length)}</span>
      </header>
      {group.description ? <p className={styles.groupDescription}>{group.description}</p> : null}
      <Collapse
        size="small"
        items={group.operations.map((op) => ({
          key: op.key,
          label: (
            <span className={styles.opHead} data-testid={`api-op-${op.key}`}>
              <MethodBadge method={op.method} />
              <code className={`${styles.path} ${op.deprecated ? styles.deprecated : ''}`}>{op.path}</code>
              <span className={styles.summary}>{op.summary}</span>
            </span>
          ),
          extra: <AccessTag operation={op} />,
          children: <ApiOperation operation={op} />,
        }))}
      />
    </section>
  );
}

/** /console/api-docs (issue 32): the server's OpenAPI document, grouped by tag, searchable. */
export default function ApiDocsPage() {
  const { data, isPending, error, refetch } = useApiDocument();
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const groups = useMemo(() => (data ? groupOperations(data) : []), [data]);
  const shown = useMemo(() => filterGroups(groups, deferred), [groups, deferred]);
  // Outside production the document is on; in production only where the operator switched it on.
  const unavailable = error instanceof ApiError && error.status === 404;
  return (
    <div className={styles.page}>
      <PageHeader
        title={s.title}
        subtitle={s.subtitle}
        extra={
          <LinkButton to={PATHS.console.accountSecurity} icon={<SafetyCertificateOutlined />}>
            {s.tokens}
          </LinkButton>
        }
      />
      {data?.info?.description ? (
        <Collapse
          size="small"
          items={[
            {
              key: 'intro',
              label: s.intro,
              children: <Markdown source={data.info.description} />,
            },
          ]}
          data-testid="api-docs-intro"
        />
      ) : null}
      <Input.Search
        allowClear
        placeholder={s.search}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        className={styles.search}
        aria-label={s.search}
        data-testid="api-docs-search"
      />
      {isPending ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : error ? (
        <Alert
          type={unavailable ? 'info' : 'error'}
          showIcon
          title={unavailable ? s.unavailable : s.loadFailed}
          action={
            unavailable ? null : (
              <Button size="small" onClick={() => void refetch()}>
                {s.retry}
              </Button>
            )
          }
        />
      ) : shown.length === 0 ? (
        <Empty description={s.noMatch} />
      ) : (
        <div className={styles.groups} data-testid="api-docs">
          {shown.map((g) => (
            <Group key={g.name} group={g} />
          ))}
        </div>
      )}
    </div>
  );
}
