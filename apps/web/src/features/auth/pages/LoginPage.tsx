import { loginRequestSchema } from '@gpu/shared/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Form, Input } from 'antd';
import { Link, useLocation } from 'react-router';
import styles from '../../../components/auth-form/AuthForm.module.css';
import { AuthHeader } from '../../../components/auth-form/AuthHeader';
import { PhoneInput } from '../../../components/auth-form/PhoneInput';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { schemaRule } from '../../../lib/form-rules';
import { PATHS } from '../../../lib/routing/paths';
import { setUserSession } from '../../../lib/session';
import { t } from '../../../locales/zh-CN';
import { authKeys } from '../api/keys';
import { login } from '../api/login';
import { authLink, phoneFromSearch } from '../auth-links';

interface LoginValues {
  phone: string;
  password: string;
  rememberMe: boolean;
}

/** SPEC.md §2 login: phone, password, remember me, forgot-password and register links. */
export default function LoginPage() {
  const [form] = Form.useForm<LoginValues>();
  const { search } = useLocation();
  const phone = Form.useWatch('phone', form);
  const queryClient = useQueryClient();
  const prefilled = phoneFromSearch(search);

  const mutation = useMutation({
    mutationFn: login,
    onSuccess: ({ accessToken, user }, { rememberMe }) => {
      // Nothing cached for a previous user may show for this one.
      queryClient.removeQueries({ queryKey: authKeys.user });
      void notify('success', t.login.welcome(user.username), 3);
      // The guest guard now moves on: to the redirect query or /market (SPEC.md §2).
      setUserSession(accessToken, user, rememberMe);
    },
    onError: (err) =>
      void notify('error', failureMessage(err, { failed: t.login.failed, retry: t.login.failedRetry })),
  });

  return (
    <>
      <AuthHeader title={t.login.title} subtitle={t.login.subtitle} />
      <Form<LoginValues>
        form={form}
        className={styles.form}
        layout="vertical"
        size="large"
        requiredMark={false}
        initialValues={{ phone: prefilled, rememberMe: false }}
        onFinish={(values) => {
          // Enter submits even while the button spins; after success the next page is loading.
          if (mutation.isPending || mutation.isSuccess) return;
          mutation.mutate(loginRequestSchema.parse(values));
        }}
        onFinishFailed={() => void notify('warning', t.login.incomplete)}
        data-testid="login-form"
      >
        <Form.Item name="phone" label={t.authForm.phone} rules={[schemaRule(loginRequestSchema, 'phone')]}>
          <PhoneInput autoFocus={!prefilled} data-testid="phone-input" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t.authForm.password}
          rules={[schemaRule(loginRequestSchema, 'password')]}
        >
          <Input.Password
            placeholder={t.authForm.passwordPlaceholder}
            autoComplete="current-password"
            // After registering or resetting, the phone is prefilled: the password is next.
            autoFocus={Boolean(prefilled)}
            data-testid="password-input"
          />
        </Form.Item>
        <div className={styles.row}>
          <Form.Item name="rememberMe" valuePropName="checked" noStyle>
            <Checkbox data-testid="remember-me">{t.login.rememberMe}</Checkbox>
          </Form.Item>
          <Link to={authLink(PATHS.forgotPassword, { phone, search })} data-testid="forgot-link">
            {t.login.forgot}
          </Link>
        </div>
        <Button
          type="primary"
          htmlType="submit"
          block
          className={styles.submit}
          loading={mutation.isPending || mutation.isSuccess}
          data-testid="login-submit"
        >
          {t.login.submit}
        </Button>
        <p className={styles.footer}>
          {t.login.noAccount}
          <Link to={authLink(PATHS.register, { search })} data-testid="register-link">
            {t.login.toRegister}
          </Link>
        </p>
      </Form>
    </>
  );
}
