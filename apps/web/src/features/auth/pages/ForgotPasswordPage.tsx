import { resetPasswordRequestSchema } from '@gpu/shared/auth';
import { RESET_REDIRECT_DELAY_MS } from '@gpu/shared/constants';
import { useMutation } from '@tanstack/react-query';
import { Button, Form, Input } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import styles from '../../../components/auth-form/AuthForm.module.css';
import { AuthHeader } from '../../../components/auth-form/AuthHeader';
import { CodeField } from '../../../components/auth-form/CodeField';
import { PhoneInput } from '../../../components/auth-form/PhoneInput';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { confirmRule, schemaRule } from '../../../lib/form-rules';
import { PATHS } from '../../../lib/routing/paths';
import { t } from '../../../locales/zh-CN';
import { resetPassword } from '../api/reset-password';
import { sendResetCode } from '../api/send-code';
import { authLink, phoneFromSearch } from '../auth-links';
import { useSendCode, validPhoneOf } from '../use-send-code';

interface ResetValues {
  phone: string;
  code: string;
  newPassword: string;
  confirmPassword: string;
}

const rule = (name: keyof ResetValues) => [schemaRule(resetPasswordRequestSchema, name)];

/**
 * SPEC.md §2 forgot password: phone (?phone= prefills it), code with a 60 s resend cooldown,
 * new password (6–16, composed as at registration) and its confirmation; success waits 1.5 s, then /login.
 */
export default function ForgotPasswordPage() {
  const [form] = Form.useForm<ResetValues>();
  const { search } = useLocation();
  const navigate = useNavigate();
  const { codeInput, cooldown, sending, sendTo, label } = useSendCode(sendResetCode, {
    failed: t.resetPassword.sendFailed,
    retry: t.resetPassword.sendFailedRetry,
  });
  const [done, setDone] = useState(false);
  const leaveTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(leaveTimer.current), []);

  const sendCode = async () => {
    const phone = validPhoneOf(form, 'phone');
    if (phone) await sendTo(phone);
  };

  const mutation = useMutation({
    mutationFn: resetPassword,
    onSuccess: (message, { phone }) => {
      setDone(true);
      void notify('success', message || t.resetPassword.success);
      leaveTimer.current = window.setTimeout(
        () => void navigate(authLink(PATHS.login, { phone, search })),
        RESET_REDIRECT_DELAY_MS,
      );
    },
    onError: (err) =>
      void notify(
        'error',
        failureMessage(err, { failed: t.resetPassword.failed, retry: t.resetPassword.failedRetry }),
      ),
  });

  const phone = Form.useWatch('phone', form);

  return (
    <>
      <AuthHeader title={t.resetPassword.title} subtitle={t.resetPassword.subtitle} />
      <Form<ResetValues>
        form={form}
        className={styles.form}
        layout="vertical"
        size="large"
        requiredMark={false}
        initialValues={{ phone: phoneFromSearch(search) }}
        onFinish={(values) => {
          // Enter submits even while the button spins: one reset per page.
          if (mutation.isPending || done) return;
          mutation.mutate(resetPasswordRequestSchema.parse(values));
        }}
        onFinishFailed={() => void notify('warning', t.resetPassword.incomplete)}
        data-testid="reset-form"
      >
        <Form.Item name="phone" label={t.authForm.phone} rules={rule('phone')}>
          <PhoneInput autoFocus data-testid="phone-input" />
        </Form.Item>
        <CodeField
          name="code"
          rules={rule('code')}
          buttonLabel={label}
          buttonDisabled={cooldown.active || sending}
          sending={sending}
          onSend={sendCode}
          inputRef={codeInput}
        />
        <Form.Item name="newPassword" label={t.resetPassword.newPassword} rules={rule('newPassword')}>
          <Input.Password
            placeholder={t.resetPassword.newPasswordPlaceholder}
            autoComplete="new-password"
            data-testid="password-input"
          />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t.resetPassword.confirmPassword}
          dependencies={['newPassword']}
          rules={[confirmRule('newPassword')]}
        >
          <Input.Password
            placeholder={t.resetPassword.confirmPlaceholder}
            autoComplete="new-password"
            data-testid="confirm-input"
          />
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          block
          className={styles.submit}
          loading={mutation.isPending || done}
          data-testid="reset-submit"
        >
          {t.resetPassword.submit}
        </Button>
        <p className={styles.footer}>
          {t.resetPassword.remembered}
          <Link to={authLink(PATHS.login, { phone, search })} data-testid="login-link">
            {t.resetPassword.backToLogin}
          </Link>
        </p>
      </Form>
    </>
  );
}
