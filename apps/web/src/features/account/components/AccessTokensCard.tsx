import { ApiOutlined, DeleteOutlined, PlusOutlined, ReadOutlined } from '@ant-design/icons';
import { ACCESS_TOKENS_PER_USER, type AccessToken, type AccessTokenCreated } from '@gpu/shared/access-tokens';
import { formatTime } from '@gpu/shared/time';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Grid, Popconfirm, Space, Table, type TableProps, Tag } from 'antd';
import { useState } from 'react';
import { LinkButton } from '../../../components/LinkButton';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { PATHS } from '../../../lib/routing/paths';
import { tapi } from '../../../locales/zh-CN.api';
import { revokeAccessToken, useAccessTokens } from '../api/access-tokens';
import { accountKeys } from '../api/keys';
import styles from './AccessTokensCard.module.css';
import { CreateTokenDialog } from './CreateTokenDialog';
import { TokenCreatedModal } from './TokenCreatedModal';

const s = tapi.tokens;

const isExpired = (token: AccessToken, now = Date.now()) => Date.parse(token.expiresAt) <= now;

function RevokeButton({ token }: { token: AccessToken }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => revokeAccessToken(token.id),
    onSuccess: (message) => {
      void notify('success', message || s.revoked);
      void queryClient.invalidateQueries({ queryKey: accountKeys.accessTokens() });
    },
    onError: (err) =>
      void notify('error', failureMessage(err, { failed: s.revokeFailed, retry: s.revokeFailed })),
  });
  return (
    <Popconfirm
      title={s.revokeConfirm(token.name)}
      description={<span className={styles.revokeHint}>{s.revokeHint}</span>}
      onConfirm={() => mutation.mutateAsync()}
      okText={s.revoke}
      okButtonProps={{ danger: true }}
      cancelText={s.cancel}
    >
      <Button
        size="small"
        danger
        icon={<DeleteOutlined />}
        loading={mutation.isPending}
        data-testid={`access-token-revoke-${token.id}`}
      >
        {s.revoke}
      </Button>
    </Popconfirm>
  );
}

const Prefix = ({ token }: { token: AccessToken }) => <code className={styles.prefix}>{token.prefix}…</code>;

const Scopes = ({ token }: { token: AccessToken }) => (
  <span className={styles.tags}>
    {token.scopes.map((scope) => (
      <Tag key={scope} color={scope === 'read' ? 'default' : scope === 'billing' ? 'gold' : 'blue'}>
        {s.scopeLabels[scope]}
      </Tag>
    ))}
  </span>
);

const Expires = ({ token }: { token: AccessToken }) => (
  <span>
    {formatTime(token.expiresAt, 'YYYY-MM-DD HH:mm')}
    {isExpired(token) ? (
      <Tag color="red" className={styles.expired}>
        {s.expired}
      </Tag>
    ) : null}
  </span>
);

const lastUsed = (token: AccessToken) =>
  token.lastUsedAt ? s.lastUsedValue(formatTime(token.lastUsedAt), token.lastUsedIp) : s.neverUsed;

const COLUMNS: TableProps<AccessToken>['columns'] = [
  { title: s.name, dataIndex: 'name', width: 140, ellipsis: true },
  { title: s.prefix, width: 110, render: (_: unknown, k: AccessToken) => <Prefix token={k} /> },
  { title: s.scopes, width: 190, render: (_: unknown, k: AccessToken) => <Scopes token={k} /> },
  {
    title: s.createdAt,
    dataIndex: 'createdAt',
    width: 150,
    render: (v: string) => formatTime(v, 'YYYY-MM-DD HH:mm'),
  },
  { title: s.expiresAt, width: 200, render: (_: unknown, k: AccessToken) => <Expires token={k} /> },
  { title: s.lastUsed, width: 230, render: (_: unknown, k: AccessToken) => lastUsed(k) },
  { title: s.actions, width: 90, render: (_: unknown, k: AccessToken) => <RevokeButton token={k} /> },
];

/** Phones: one block per token instead of a table that scrolls sideways. */
function TokenList({ tokens }: { tokens: AccessToken[] }) {
  if (tokens.length === 0) return <Empty description={s.empty} />;
  return (
    <ul className={styles.list}>
      {tokens.map((k) => (
        <li key={k.id} data-testid={`access-token-${k.id}`}>
          <div className={styles.row}>
            <strong className={styles.name}>{k.name}</strong>
            <RevokeButton token={k} />
          </div>
          <div className={styles.row}>
            <Prefix token={k} />
            <Scopes token={k} />
          </div>
          <div className={styles.meta}>
            {s.expiresAt}：<Expires token={k} />
          </div>
          <div className={styles.meta}>
            {s.lastUsed}：{lastUsed(k)}
          </div>
        </li>
      ))}
    </ul>
  );
}

/**
 * 账号安全 → API令牌 (issue 32): create (the token shows once), list with last use, revoke.
 * Tokens are managed only from a signed-in browser: the routes refuse tokens.
 */
export default function AccessTokensCard() {
  const { data, isPending, isError } = useAccessTokens();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<AccessTokenCreated | null>(null);
  const mobile = Grid.useBreakpoint().md === false;
  const tokens = data ?? [];
  // Expired tokens stay listed but do not count towards the limit (the server's rule).
  const live = tokens.filter((k) => !isExpired(k)).length;
  const full = live >= ACCESS_TOKENS_PER_USER;
  const docsLink = (
    <LinkButton to={PATHS.console.apiDocs} icon={<ReadOutlined />} data-testid="access-token-docs">
      {s.docs}
    </LinkButton>
  );
  return (
    <Card
      title={
        <>
          <ApiOutlined /> {s.title}
        </>
      }
      extra={
        <Space size={8}>
          {mobile ? null : docsLink}
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setCreating(true)}
            disabled={full}
            data-testid="access-token-add"
          >
            {s.create}
          </Button>
        </Space>
      }
      className={styles.card}
      data-testid="access-tokens"
    >
      <p className={styles.hint}>
        {s.hint} <span className={styles.count}>{s.count(live)}</span>
      </p>
      {/* Phones: the card's head holds the title and one button; the docs link goes below. */}
      {mobile ? <div className={styles.docsBelow}>{docsLink}</div> : null}
      {full ? <Alert type="info" showIcon title={s.full} className={styles.full} /> : null}
      {isError ? (
        <Alert type="error" showIcon title={s.loadFailed} />
      ) : mobile ? (
        isPending ? (
          <Card loading variant="borderless" />
        ) : (
          <TokenList tokens={tokens} />
        )
      ) : (
        <Table<AccessToken>
          rowKey="id"
          size="small"
          columns={COLUMNS}
          dataSource={tokens}
          loading={isPending}
          pagination={false}
          locale={{ emptyText: <Empty description={s.empty} /> }}
          onRow={(k) => ({ 'data-testid': `access-token-${k.id}` }) as object}
          scroll={{ x: 'max-content' }}
        />
      )}
      <CreateTokenDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(token) => {
          setCreating(false);
          setCreated(token);
        }}
      />
      <TokenCreatedModal created={created} onClose={() => setCreated(null)} />
    </Card>
  );
}
