import { SafetyCertificateOutlined } from '@ant-design/icons';
import type { Admin } from '@gpu/shared/auth';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, type InputProps, Space, Tag, Typography } from 'antd';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import layout from '../../../components/security/SecurityCards.module.css';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { ta } from '../../../locales/zh-CN.admin';
import { confirmTotp, disableTotp, enrolTotp, regenerateRecoveryCodes } from '../api/own-account';
import styles from './AdminSecurity.module.css';

const s = ta.adminSecurity;
const CODE_RULES = [{ required: true, pattern: /^\d{6}$/, message: s.codeInvalid }];
const digits = (v: string) => v.replace(/\D/g, '').slice(0, 6);

/** The 6-digit code field; Form.Item hands it value and onChange. */
function CodeInput({ testId, ...props }: { testId: string } & InputProps) {
  return (
    <Input
      {...props}
      placeholder={s.codePlaceholder}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      data-testid={testId}
    />
  );
}

/** Enrolment: the QR and the secret, then a code from the app confirms it. */
function Enrol({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const [form] = Form.useForm<{ code: string }>();
  const start = useMutation({
    mutationFn: enrolTotp,
    onError: (err) =>
      void notify('error', failureMessage(err, { failed: s.enrolFailed, retry: s.enrolFailed })),
  });
  const confirm = useMutation({
    mutationFn: confirmTotp,
    onSuccess: ({ recoveryCodes }) => {
      void notify('success', s.enabled);
      start.reset();
      onCodes(recoveryCodes);
    },
    onError: (err) => {
      void notify('error', failureMessage(err, { failed: s.confirmFailed, retry: s.confirmFailed }));
      form.setFieldValue('code', '');
    },
  });
  if (!start.data)
    return (
      <Button
        type="primary"
        onClick={() => start.mutate()}
        loading={start.isPending}
        data-testid="totp-enrol"
      >
        {s.enrol}
      </Button>
    );
  return (
    <div className={styles.enrol} data-testid="totp-enrolment">
      <strong>{s.scan}</strong>
      <div className={styles.qr}>
        <QRCodeSVG value={start.data.uri} size={180} />
      </div>
      <div>
        {s.manual}
        <Typography.Text copyable className={styles.secret} data-testid="totp-secret">
          {start.data.secret}
        </Typography.Text>
      </div>
      <strong>{s.enterCode}</strong>
      <Form<{ code: string }> form={form} layout="inline" onFinish={({ code }) => confirm.mutate(code)}>
        <Form.Item name="code" rules={CODE_RULES} normalize={digits}>
          <CodeInput testId="totp-confirm-code" />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={confirm.isPending} data-testid="totp-confirm">
            {s.confirm}
          </Button>
          <Button onClick={() => start.reset()}>{s.cancel}</Button>
        </Space>
      </Form>
    </div>
  );
}

/** Once enrolled: a new set of recovery codes (needs a code), and disabling (needs the password). */
function Enrolled({
  admin,
  onCodes,
  onChanged,
}: {
  admin: Admin;
  onCodes: (c: string[]) => void;
  onChanged: () => void;
}) {
  const [open, setOpen] = useState<'regenerate' | 'disable' | null>(null);
  const regenerate = useMutation({
    mutationFn: regenerateRecoveryCodes,
    onSuccess: ({ recoveryCodes }) => {
      setOpen(null);
      onCodes(recoveryCodes);
    },
    onError: (err) =>
      void notify('error', failureMessage(err, { failed: s.regenerateFailed, retry: s.regenerateFailed })),
  });
  const disable = useMutation({
    mutationFn: disableTotp,
    onSuccess: () => {
      void notify('success', s.disabled);
      setOpen(null);
      onChanged();
    },
    onError: (err) =>
      void notify('error', failureMessage(err, { failed: s.disableFailed, retry: s.disableFailed })),
  });
  const isSuper = admin.role === 'SUPER';
  return (
    <div className={styles.enrol}>
      <div className={styles.row}>
        <Button
          onClick={() => setOpen(open === 'regenerate' ? null : 'regenerate')}
          data-testid="totp-regenerate"
        >
          {s.regenerate}
        </Button>
        {isSuper ? null : (
          <Button
            danger
            onClick={() => setOpen(open === 'disable' ? null : 'disable')}
            data-testid="totp-disable"
          >
            {s.disable}
          </Button>
        )}
      </div>
      {isSuper ? (
        <Alert type="info" showIcon title={s.superCannotDisable} data-testid="totp-super-note" />
      ) : null}
      {open === 'regenerate' ? (
        <Form<{ code: string }> layout="vertical" onFinish={({ code }) => regenerate.mutate(code)}>
          <p className={styles.hint}>{s.regenerateHint}</p>
          <Form.Item name="code" label={s.code} rules={CODE_RULES} normalize={digits}>
            <CodeInput testId="totp-regenerate-code" />
          </Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            loading={regenerate.isPending}
            data-testid="totp-regenerate-submit"
          >
            {s.regenerate}
          </Button>
        </Form>
      ) : null}
      {open === 'disable' ? (
        <Form<{ password: string }> layout="vertical" onFinish={({ password }) => disable.mutate(password)}>
          <p className={styles.hint}>{s.disableHint}</p>
          <Form.Item
            name="password"
            label={s.disablePassword}
            rules={[{ required: true, message: s.passwordRequired }]}
          >
            <Input.Password autoComplete="current-password" data-testid="totp-disable-password" />
          </Form.Item>
          <Button danger htmlType="submit" loading={disable.isPending} data-testid="totp-disable-submit">
            {s.disable}
          </Button>
        </Form>
      ) : null}
    </div>
  );
}

/** 两步验证: status, enrolment with QR and recovery codes, regeneration, disabling. */
export function TotpCard({
  admin,
  onCodes,
  onChanged,
}: {
  admin: Admin;
  onCodes: (codes: string[]) => void;
  onChanged: () => void;
}) {
  return (
    <Card
      title={
        <>
          <SafetyCertificateOutlined /> {s.totpTitle}{' '}
          <Tag color={admin.totpEnabled ? 'green' : 'default'} data-testid="totp-status">
            {admin.totpEnabled ? s.totpOn : s.totpOff}
          </Tag>
        </>
      }
      className={layout.card}
    >
      <p className={styles.hint}>{admin.totpEnabled ? s.totpOnHint : s.totpOffHint}</p>
      {admin.totpEnabled ? (
        <Enrolled admin={admin} onCodes={onCodes} onChanged={onChanged} />
      ) : (
        <Enrol onCodes={onCodes} />
      )}
    </Card>
  );
}
