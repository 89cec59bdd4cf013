import { KeyOutlined, SafetyOutlined } from '@ant-design/icons';
import type { Admin } from '@gpu/shared/auth';
import { useMutation } from '@tanstack/react-query';
import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import styles from '../../../components/auth-form/AuthForm.module.css';
import { AuthHeader } from '../../../components/auth-form/AuthHeader';
import { ApiError } from '../../../lib/api-client';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { ta } from '../../../locales/zh-CN.admin';
import { adminVerifySecondFactor } from '../api/admin-login';

const l = ta.adminLogin;

/** The 6-digit code of an authenticator app, or one recovery code (xxxxx-xxxxx). */
export const TOTP_CODE = /^\d{6}$/;
export const RECOVERY_CODE = /^[a-z0-9]{5}-?[a-z0-9]{5}$/i;

/**
 * The second sign-in step (issue 29): the challenge from the password step and a code. An
 * expired challenge sends the administrator back to the password step.
 */
export function SecondFactorForm({
  challenge,
  onSignedIn,
  onRestart,
}: {
  challenge: string;
  onSignedIn: (session: { token: string; admin: Admin }) => void;
  onRestart: () => void;
}) {
  const [recovery, setRecovery] = useState(false);
  const [form] = Form.useForm<{ code: string }>();
  const mutation = useMutation({
    mutationFn: (code: string) => adminVerifySecondFactor({ challenge, code }),
    onSuccess: onSignedIn,
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'admin.challenge_invalid') {
        void notify('warning', l.challengeExpired);
        onRestart();
        return;
      }
      void notify('error', failureMessage(err, { failed: l.verifyFailed, retry: l.verifyFailed }));
      form.setFieldValue('code', '');
    },
  });

  return (
    <>
      <AuthHeader title={l.totpTitle} subtitle={recovery ? l.recoverySubtitle : l.totpSubtitle} />
      <Form<{ code: string }>
        key={recovery ? 'recovery' : 'totp'}
        form={form}
        className={styles.form}
        layout="vertical"
        size="large"
        requiredMark={false}
        onFinish={({ code }) => mutation.mutate(code.trim())}
        data-testid="admin-totp-form"
      >
        <Form.Item
          name="code"
          label={recovery ? l.recoveryCode : l.code}
          rules={[
            { required: true, message: l.codeRequired },
            {
              pattern: recovery ? RECOVERY_CODE : TOTP_CODE,
              message: recovery ? l.recoveryInvalid : l.codeInvalid,
            },
          ]}
          normalize={(v: string) => (recovery ? v : v.replace(/\D/g, '').slice(0, 6))}
        >
          {recovery ? (
            <Input
              prefix={<KeyOutlined />}
              placeholder={l.recoveryCodePlaceholder}
              autoComplete="off"
              autoFocus
              spellCheck={false}
              data-testid="recovery-code-input"
            />
          ) : (
            <Input
              prefix={<SafetyOutlined />}
              placeholder={l.codePlaceholder}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              autoFocus
              data-testid="totp-code-input"
            />
          )}
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          block
          className={styles.submit}
          loading={mutation.isPending}
          data-testid="admin-totp-submit"
        >
          {l.verify}
        </Button>
        <p className={styles.footer}>
          <Button type="link" onClick={() => setRecovery((v) => !v)} data-testid="totp-switch-mode">
            {recovery ? l.useTotp : l.useRecovery}
          </Button>
          <br />
          <Button type="link" onClick={onRestart} data-testid="totp-back">
            {l.backToPassword}
          </Button>
        </p>
      </Form>
    </>
  );
}
