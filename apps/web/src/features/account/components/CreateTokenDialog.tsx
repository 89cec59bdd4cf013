import {
  ACCESS_TOKEN_EXPIRY_DAYS,
  ACCESS_TOKEN_NAME_MAX,
  ACCESS_TOKEN_SCOPES,
  type AccessTokenCreate,
  type AccessTokenCreated,
  accessTokenCreateSchema,
} from '@gpu/shared/access-tokens';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Checkbox, Form, Input, Modal, Select } from 'antd';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { schemaRule } from '../../../lib/form-rules';
import { tapi } from '../../../locales/zh-CN.api';
import { createAccessToken } from '../api/access-tokens';
import { accountKeys } from '../api/keys';
import styles from './AccessTokensCard.module.css';

const s = tapi.tokens;

const INITIAL: Partial<AccessTokenCreate> = { scopes: ['read'], expiresInDays: s.expiryDefault };
const EXPIRY_OPTIONS = ACCESS_TOKEN_EXPIRY_DAYS.map((d) => ({ value: d, label: s.expiryOption(d) }));

/** 创建API令牌: name, scopes, expiry; hands the created token (shown once) to `onCreated`. */
export function CreateTokenDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (token: AccessTokenCreated) => void;
}) {
  const queryClient = useQueryClient();
  const [form] = Form.useForm<AccessTokenCreate>();
  const mutation = useMutation({
    mutationFn: createAccessToken,
    onSuccess: (created) => {
      void queryClient.invalidateQueries({ queryKey: accountKeys.accessTokens() });
      form.resetFields();
      onCreated(created);
    },
    // Beyond the limit (or any refusal) the server's own words show.
    onError: (err) =>
      void notify('error', failureMessage(err, { failed: s.createFailed, retry: s.createFailed })),
  });
  const rule = (name: string) => [schemaRule(accessTokenCreateSchema, name)];
  return (
    <Modal
      open={open}
      title={s.createTitle}
      okText={s.create}
      cancelText={s.cancel}
      confirmLoading={mutation.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ id: 'access-token-submit' }}
    >
      <Form<AccessTokenCreate>
        form={form}
        layout="vertical"
        initialValues={INITIAL}
        onFinish={(v) => mutation.mutate(accessTokenCreateSchema.parse(v))}
        data-testid="access-token-form"
      >
        <Form.Item name="name" label={s.name} rules={rule('name')}>
          <Input
            placeholder={s.namePlaceholder}
            maxLength={ACCESS_TOKEN_NAME_MAX}
            autoFocus
            data-testid="access-token-name"
          />
        </Form.Item>
        <Form.Item name="scopes" label={s.scopes} rules={rule('scopes')}>
          <Checkbox.Group className={styles.scopes} data-testid="access-token-scopes">
            {ACCESS_TOKEN_SCOPES.map((scope) => (
              <Checkbox key={scope} value={scope} data-testid={`access-token-scope-${scope}`}>
                <span className={styles.scopeName}>{s.scopeLabels[scope]}</span>
                <span className={styles.scopeHint}>{s.scopeHints[scope]}</span>
              </Checkbox>
            ))}
          </Checkbox.Group>
        </Form.Item>
        <Form.Item name="expiresInDays" label={s.expiry} rules={rule('expiresInDays')}>
          <Select options={EXPIRY_OPTIONS} data-testid="access-token-expiry" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
