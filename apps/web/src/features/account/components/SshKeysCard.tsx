import { DeleteOutlined, KeyOutlined, PlusOutlined } from '@ant-design/icons';
import { type SshKey, type SshKeyCreate, sshKeyCreateSchema } from '@gpu/shared/ssh-keys';
import { formatTime } from '@gpu/shared/time';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Empty,
  Form,
  Grid,
  Input,
  Modal,
  Popconfirm,
  Table,
  type TableProps,
} from 'antd';
import { useState } from 'react';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { schemaRule } from '../../../lib/form-rules';
import { t } from '../../../locales/zh-CN';
import { accountKeys } from '../api/keys';
import { addSshKey, deleteSshKey, useSshKeys } from '../api/ssh-keys';
import styles from './SshKeysCard.module.css';

const s = t.sshKeys;

function AddKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SshKeyCreate>();
  const mutation = useMutation({
    mutationFn: addSshKey,
    onSuccess: (message) => {
      void notify('success', message || s.added);
      void queryClient.invalidateQueries({ queryKey: accountKeys.sshKeys() });
      form.resetFields();
      onClose();
    },
    onError: (err) => void notify('error', failureMessage(err, { failed: s.addFailed, retry: s.addFailed })),
  });
  const rule = (name: string) => [schemaRule(sshKeyCreateSchema, name)];
  return (
    <Modal
      open={open}
      title={s.addTitle}
      okText={s.add}
      cancelText={s.cancel}
      confirmLoading={mutation.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ id: 'ssh-key-submit' }}
    >
      <Form<SshKeyCreate>
        form={form}
        layout="vertical"
        onFinish={(v) => mutation.mutate(sshKeyCreateSchema.parse(v))}
        data-testid="ssh-key-form"
      >
        <Form.Item name="name" label={s.name} rules={rule('name')}>
          <Input placeholder={s.namePlaceholder} maxLength={32} data-testid="ssh-key-name" />
        </Form.Item>
        <Form.Item name="publicKey" label={s.publicKey} rules={rule('publicKey')} extra={s.publicKeyHint}>
          <Input.TextArea
            rows={5}
            placeholder={s.publicKeyPlaceholder}
            className={styles.keyInput}
            spellCheck={false}
            data-testid="ssh-key-public"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function DeleteButton({ sshKey }: { sshKey: SshKey }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => deleteSshKey(sshKey.id),
    onSuccess: (message) => {
      void notify('success', message || s.deleted);
      void queryClient.invalidateQueries({ queryKey: accountKeys.sshKeys() });
    },
    onError: (err) =>
      void notify('error', failureMessage(err, { failed: s.deleteFailed, retry: s.deleteFailed })),
  });
  return (
    <Popconfirm
      title={s.deleteConfirm(sshKey.name)}
      description={s.deleteHint}
      onConfirm={() => mutation.mutateAsync()}
      okText={s.delete}
      okButtonProps={{ danger: true }}
      cancelText={s.cancel}
    >
      <Button
        size="small"
        danger
        icon={<DeleteOutlined />}
        loading={mutation.isPending}
        data-testid={`ssh-key-delete-${sshKey.id}`}
      >
        {s.delete}
      </Button>
    </Popconfirm>
  );
}

const Fingerprint = ({ value }: { value: string }) => (
  <code className={styles.fingerprint} title={value}>
    {value}
  </code>
);

const COLUMNS: TableProps<SshKey>['columns'] = [
  { title: s.name, dataIndex: 'name', width: 160, ellipsis: true },
  {
    title: s.type,
    width: 190,
    render: (_: unknown, k: SshKey) => `${k.type}${k.type === 'ssh-rsa' ? ` (${k.bits})` : ''}`,
  },
  { title: s.fingerprint, dataIndex: 'fingerprint', render: (v: string) => <Fingerprint value={v} /> },
  { title: s.createdAt, dataIndex: 'createdAt', width: 170, render: (v: string) => formatTime(v) },
  { title: s.actions, width: 100, render: (_: unknown, k: SshKey) => <DeleteButton sshKey={k} /> },
];

/** 账号安全 → SSH公钥: add, list and delete; every key goes into each instance made or started later. */
export function SshKeysCard() {
  const { data, isPending, isError } = useSshKeys();
  const [adding, setAdding] = useState(false);
  const mobile = Grid.useBreakpoint().md === false;
  const keys = data ?? [];
  return (
    <Card
      title={
        <>
          <KeyOutlined /> {s.title}
        </>
      }
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setAdding(true)}
          data-testid="ssh-key-add"
        >
          {s.add}
        </Button>
      }
      className={styles.card}
      data-testid="ssh-keys"
    >
      <p className={styles.hint}>{s.hint}</p>
      {isError ? (
        <Alert type="error" showIcon title={s.loadFailed} />
      ) : mobile ? (
        keys.length === 0 ? (
          <Empty description={s.empty} />
        ) : (
          <ul className={styles.list}>
            {keys.map((k) => (
              <li key={k.id} data-testid={`ssh-key-${k.id}`}>
                <div className={styles.row}>
                  <strong>{k.name}</strong>
                  <DeleteButton sshKey={k} />
                </div>
                <Fingerprint value={k.fingerprint} />
                <div className={styles.meta}>
                  {k.type} · {formatTime(k.createdAt)}
                </div>
              </li>
            ))}
          </ul>
        )
      ) : (
        <Table<SshKey>
          rowKey="id"
          size="small"
          columns={COLUMNS}
          dataSource={keys}
          loading={isPending}
          pagination={false}
          locale={{ emptyText: <Empty description={s.empty} /> }}
          onRow={(k) => ({ 'data-testid': `ssh-key-${k.id}` }) as object}
          scroll={{ x: 'max-content' }}
        />
      )}
      <AddKeyDialog open={adding} onClose={() => setAdding(false)} />
    </Card>
  );
}
