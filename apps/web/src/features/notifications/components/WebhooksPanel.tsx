import { CopyOutlined, PlusOutlined } from '@ant-design/icons';
import {
  WEBHOOK_RETRY_DELAYS_S,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOKS_PER_USER,
} from '@gpu/shared/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Empty, Form, Input, Modal, Skeleton } from 'antd';
import { useState } from 'react';
import { copyToClipboard } from '../../../lib/clipboard';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { tn } from '../../../locales/zh-CN.notifications';
import { notificationKeys } from '../api/keys';
import { addWebhook, type CreatedWebhook, useWebhooks } from '../api/webhooks';
import { SIGNATURE_SAMPLE } from '../webhook-signature-sample';
import { WebhookCard } from './WebhookCard';
import styles from './WebhooksPanel.module.css';

const w = tn.webhooks;

/** An http(s) address; the server checks it again (and refuses private networks). */
export function isWebhookUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The secret, whole, once: after the dialog closes only its hint is left. */
function SecretDialog({ created, onClose }: { created: CreatedWebhook | null; onClose: () => void }) {
  const copy = async () => {
    if (!created) return;
    if (await copyToClipboard(created.secret)) void notify('success', w.copied);
    else void notify('error', w.copyFailed);
  };
  return (
    <Modal
      open={created !== null}
      title={w.secretTitle}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose} data-testid="webhook-secret-done">
          {w.secretSaved}
        </Button>
      }
    >
      <Alert type="warning" showIcon title={w.secretHint} className={styles.secretAlert} />
      <div className={styles.secretRow}>
        <code className={styles.secret} data-testid="webhook-secret">
          {created?.secret}
        </code>
        <Button icon={<CopyOutlined />} onClick={() => void copy()} data-testid="webhook-secret-copy">
          {w.copy}
        </Button>
      </div>
    </Modal>
  );
}

/** 通知设置 → Webhook: add an address, the secret once, each webhook with its log; how to verify. */
export function WebhooksPanel() {
  const hooks = useWebhooks();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ url: string }>();
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const add = useMutation({
    mutationFn: (url: string) => addWebhook(url),
    onSuccess: (hook) => {
      form.resetFields();
      setCreated(hook);
      void notify('success', w.added);
      void queryClient.invalidateQueries({ queryKey: notificationKeys.webhooks() });
    },
    onError: (err) => void notify('error', failureMessage(err, { failed: w.addFailed, retry: w.addFailed })),
  });
  const list = hooks.data ?? [];
  const full = list.length >= WEBHOOKS_PER_USER;

  return (
    <div className={styles.panel}>
      <p className={styles.hint}>
        {w.hint(WEBHOOKS_PER_USER, WEBHOOK_RETRY_DELAYS_S.map(w.delay).join('、'))}
      </p>
      <Form
        form={form}
        layout="vertical"
        className={styles.addForm}
        onFinish={({ url }) => add.mutate(url.trim())}
        data-testid="webhook-add-form"
      >
        <div className={styles.addRow}>
          <Form.Item
            name="url"
            className={styles.urlItem}
            rules={[
              { required: true, whitespace: true, message: w.urlRequired },
              {
                validator: async (_rule, value: string | undefined) => {
                  if (value?.trim() && !isWebhookUrl(value)) throw new Error(w.urlInvalid);
                },
              },
            ]}
          >
            <Input
              placeholder={w.urlPlaceholder}
              aria-label={w.url}
              maxLength={500}
              inputMode="url"
              autoComplete="off"
              data-testid="webhook-url-input"
            />
          </Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            icon={<PlusOutlined />}
            loading={add.isPending}
            disabled={full}
            className={styles.addButton}
            data-testid="webhook-add"
          >
            {w.add}
          </Button>
        </div>
      </Form>

      {hooks.isError ? (
        <Alert type="error" showIcon title={w.loadFailed} />
      ) : hooks.isPending ? (
        <Skeleton active />
      ) : list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={w.empty} data-testid="webhooks-empty" />
      ) : (
        list.map((hook) => <WebhookCard key={hook.id} hook={hook} />)
      )}

      <section className={styles.help} data-testid="webhook-verify-help">
        <h3>{w.verifyTitle}</h3>
        <p>{w.verifyText(WEBHOOK_SIGNATURE_HEADER)}</p>
        <pre className={styles.code}>
          <code>{SIGNATURE_SAMPLE}</code>
        </pre>
      </section>
      <SecretDialog created={created} onClose={() => setCreated(null)} />
    </div>
  );
}
