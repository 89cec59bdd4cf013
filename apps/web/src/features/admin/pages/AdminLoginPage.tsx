import { LockOutlined, UserOutlined } from '@ant-design/icons';
import type { Admin } from '@gpu/shared/auth';
import { adminLoginRequestSchema } from '@gpu/shared/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import styles from '../../../components/auth-form/AuthForm.module.css';
import { AuthHeader } from '../../../components/auth-form/AuthHeader';
import { LinkButton } from '../../../components/LinkButton';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { schemaRule } from '../../../lib/form-rules';
import { PATHS } from '../../../lib/routing/paths';
import { setAdminSession } from '../../../lib/session';
import { ta } from '../../../locales/zh-CN.admin';
import { adminLogin } from '../api/admin-login';
import { adminKeys } from '../api/keys';
import { SecondFactorForm } from '../components/SecondFactorForm';

interface AdminLoginValues {
  username: string;
  password: string;
}

/**
 * SPEC.md §2 /admin/login: username and password; with 2FA on, then a code (issue 29); then
 * the redirect query or /admin.
 */
export default function AdminLoginPage() {
  const [form] = Form.useForm<AdminLoginValues>();
  const [challenge, setChallenge] = useState<string | null>(null);
  // Back from the second step, the username is still filled in (the password is asked again).
  const [username, setUsername] = useState<string | undefined>();
  const queryClient = useQueryClient();
  const signedIn = ({ token, admin }: { token: string; admin: Admin }) => {
    queryClient.removeQueries({ queryKey: adminKeys.all });
    void notify('success', ta.adminLogin.success);
    // The adminGuest guard now moves on: to the redirect query (an /admin path) or /admin.
    setAdminSession(token, admin);
  };
  const mutation = useMutation({
    mutationFn: adminLogin,
    onSuccess: (answer) => {
      if ('mfaRequired' in answer) {
        setUsername(form.getFieldValue('username'));
        setChallenge(answer.challenge);
      } else signedIn(answer);
    },
    onError: (err) => {
      const failed = ta.adminLogin.failed;
      void notify('error', failureMessage(err, { failed, retry: failed }));
    },
  });

  if (challenge)
    return (
      <SecondFactorForm challenge={challenge} onSignedIn={signedIn} onRestart={() => setChallenge(null)} />
    );

  return (
    <>
      <AuthHeader title={ta.adminLogin.title} subtitle={ta.adminLogin.subtitle} />
      <Form<AdminLoginValues>
        form={form}
        className={styles.form}
        layout="vertical"
        size="large"
        requiredMark={false}
        initialValues={{ username }}
        onFinish={(values) => mutation.mutate(adminLoginRequestSchema.parse(values))}
        onFinishFailed={() => void notify('warning', ta.adminLogin.incomplete)}
        data-testid="admin-login-form"
      >
        <Form.Item
          name="username"
          label={ta.adminLogin.username}
          rules={[schemaRule(adminLoginRequestSchema, 'username')]}
        >
          <Input
            prefix={<UserOutlined />}
            placeholder={ta.adminLogin.usernamePlaceholder}
            autoComplete="username"
            autoFocus
            data-testid="username-input"
          />
        </Form.Item>
        <Form.Item
          name="password"
          label={ta.adminLogin.password}
          rules={[schemaRule(adminLoginRequestSchema, 'password')]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={ta.adminLogin.passwordPlaceholder}
            autoComplete="current-password"
            data-testid="password-input"
          />
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          block
          className={styles.submit}
          loading={mutation.isPending}
          data-testid="admin-login-submit"
        >
          {ta.adminLogin.submit}
        </Button>
        <p className={styles.footer}>
          <LinkButton to={PATHS.home} type="link">
            {ta.adminLogin.backToSite}
          </LinkButton>
        </p>
      </Form>
    </>
  );
}
