import { MobileOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import type { ChangePhoneRequest, SignIn } from '@gpu/shared/auth';
import { changePasswordRequestSchema, changePhoneRequestSchema } from '@gpu/shared/auth';
import { formatTime } from '@gpu/shared/time';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Form, Grid, Input, Table, type TableProps, Tag } from 'antd';
import { lazy, Suspense } from 'react';
import { CodeField } from '../../../components/auth-form/CodeField';
import { PhoneInput } from '../../../components/auth-form/PhoneInput';
import { PageHeader } from '../../../components/PageHeader';
import { ChangePasswordCard } from '../../../components/security/ChangePasswordCard';
import layout from '../../../components/security/SecurityCards.module.css';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { schemaRule } from '../../../lib/form-rules';
import { useSession } from '../../../lib/use-session';
import { t } from '../../../locales/zh-CN';
import { changePassword, useSendCode, validPhoneOf } from '../../auth';
import { changePhone, sendChangePhoneCode, useSignIns } from '../api/account';
import { accountKeys } from '../api/keys';
import { SshKeysCard } from '../components/SshKeysCard';
import { deviceLabel } from '../device-label';
import styles from './AccountSecurityPage.module.css';

const s = t.accountSecurity;

// Its own chunk (create dialog, token modal, their texts): the page's chunk stays in its budget.
const AccessTokensCard = lazy(() => import('../components/AccessTokensCard'));

function PasswordCard() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: changePassword,
    onSuccess: (ok) => {
      if (ok) void queryClient.invalidateQueries({ queryKey: accountKeys.signIns() });
    },
  });
  return (
    <ChangePasswordCard
      texts={s}
      current={{ name: 'oldPassword', label: s.oldPassword, testId: 'old-password' }}
      schema={changePasswordRequestSchema}
      pending={mutation.isPending}
      onSubmit={(oldPassword, newPassword) => mutation.mutateAsync({ oldPassword, newPassword })}
      testId="password-form"
    />
  );
}

function PhoneCard() {
  const { user } = useSession();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ChangePhoneRequest>();
  const { codeInput, cooldown, sending, sendTo, label } = useSendCode(sendChangePhoneCode, {
    failed: t.resetPassword.sendFailed,
    retry: t.resetPassword.sendFailedRetry,
  });

  const sendCode = async () => {
    const phone = validPhoneOf(form, 'newPhone');
    if (phone) await sendTo(phone);
  };
  const mutation = useMutation({
    mutationFn: changePhone,
    onSuccess: (message) => {
      void notify('success', message || s.phoneChanged);
      form.resetFields();
      void queryClient.invalidateQueries({ queryKey: accountKeys.signIns() });
    },
    onError: (err) =>
      void notify('error', failureMessage(err, { failed: s.changePhoneFailed, retry: s.changePhoneFailed })),
  });
  const rule = (name: string) => [schemaRule(changePhoneRequestSchema, name)];
  return (
    <Card
      title={
        <>
          <MobileOutlined /> {s.phoneTitle}
        </>
      }
      className={layout.card}
    >
      <p className={styles.current} data-testid="current-phone">
        {s.currentPhone(user?.phone ?? '-')}
      </p>
      <Form<ChangePhoneRequest>
        form={form}
        layout="vertical"
        onFinish={(v) => mutation.mutate(changePhoneRequestSchema.parse(v))}
        data-testid="phone-form"
      >
        <Form.Item name="password" label={s.phonePassword} rules={rule('password')}>
          <Input.Password autoComplete="current-password" data-testid="phone-password" />
        </Form.Item>
        <Form.Item name="newPhone" label={s.newPhone} rules={rule('newPhone')}>
          <PhoneInput data-testid="new-phone" />
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
        <p className={layout.hint}>{s.phoneHint}</p>
        <Button type="primary" htmlType="submit" loading={mutation.isPending} data-testid="phone-submit">
          {s.savePhone}
        </Button>
      </Form>
    </Card>
  );
}

const COLUMNS: TableProps<SignIn>['columns'] = [
  { title: s.signInTime, dataIndex: 'time', width: 180, render: (v: string) => formatTime(v) },
  { title: s.signInIp, dataIndex: 'ip', width: 150, render: (v: string | null) => v ?? s.unknown },
  {
    title: s.signInDevice,
    dataIndex: 'device',
    ellipsis: true,
    render: (v: string | null) => <span title={v ?? ''}>{deviceLabel(v) ?? s.unknown}</span>,
  },
  { title: s.signInState, width: 110, render: (_: unknown, r: SignIn) => <SignInState signIn={r} /> },
];

function SignInState({ signIn }: { signIn: SignIn }) {
  if (signIn.current) return <Tag color="blue">{s.current}</Tag>;
  return signIn.active ? <Tag color="green">{s.active}</Tag> : <Tag>{s.ended}</Tag>;
}

/** Phones: one line pair per sign-in instead of a table that scrolls sideways. */
function SignInList({ signIns }: { signIns: SignIn[] }) {
  if (signIns.length === 0) return <Empty description={s.signInsEmpty} />;
  return (
    <ul className={styles.signIns} data-testid="sign-ins">
      {signIns.map((r) => (
        <li key={`${r.time}-${r.ip}-${r.device}`}>
          <div className={styles.signInHead}>
            <span>{formatTime(r.time)}</span>
            <SignInState signIn={r} />
          </div>
          <div className={styles.signInMeta}>
            {r.ip ?? s.unknown} · {deviceLabel(r.device) ?? s.unknown}
          </div>
        </li>
      ))}
    </ul>
  );
}

function SignInsCard() {
  const { data, isPending, isError } = useSignIns();
  const mobile = Grid.useBreakpoint().md === false;
  return (
    <Card
      title={
        <>
          <SafetyCertificateOutlined /> {s.signInsTitle}
        </>
      }
      className={layout.card}
    >
      {isError ? <Alert type="error" showIcon title={s.signInsFailed} /> : null}
      {mobile ? (
        <SignInList signIns={data ?? []} />
      ) : (
        <Table<SignIn>
          rowKey={(r) => `${r.time}-${r.ip}-${r.device}`}
          columns={COLUMNS}
          dataSource={data ?? []}
          loading={isPending}
          pagination={false}
          size="middle"
          scroll={{ x: 560 }}
          locale={{ emptyText: s.signInsEmpty }}
          data-testid="sign-ins"
        />
      )}
    </Card>
  );
}

/**
 * /console/account-security: change password, change phone, SSH keys, API tokens, recent sign-ins
 * (SPEC.md §2, §8; issues 30, 32).
 */
export default function AccountSecurityPage() {
  return (
    <div className={layout.page}>
      <PageHeader title={s.title} subtitle={s.subtitle} />
      <div className={layout.grid}>
        <PasswordCard />
        <PhoneCard />
      </div>
      <SshKeysCard />
      <Suspense fallback={<Card loading className={layout.card} />}>
        <AccessTokensCard />
      </Suspense>
      <SignInsCard />
    </div>
  );
}
