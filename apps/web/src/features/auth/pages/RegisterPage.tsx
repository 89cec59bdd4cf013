import {
  CheckCircleFilled,
  CloseCircleFilled,
  ExclamationCircleFilled,
  LoadingOutlined,
} from '@ant-design/icons';
import { authMessages, registerRequestSchema } from '@gpu/shared/auth';
import { SALES_NAME_MAX } from '@gpu/shared/constants';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Form, Input } from 'antd';
import { Link, useLocation, useNavigate } from 'react-router';
import styles from '../../../components/auth-form/AuthForm.module.css';
import { AuthHeader } from '../../../components/auth-form/AuthHeader';
import { CodeField } from '../../../components/auth-form/CodeField';
import { PasswordStrength } from '../../../components/auth-form/PasswordStrength';
import { PhoneInput } from '../../../components/auth-form/PhoneInput';
import { ApiError } from '../../../lib/api-client';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { schemaRule } from '../../../lib/form-rules';
import { PATHS } from '../../../lib/routing/paths';
import { t } from '../../../locales/zh-CN';
import { authKeys } from '../api/keys';
import { register } from '../api/register';
import { sendRegisterCode } from '../api/send-code';
import { authLink, phoneFromSearch } from '../auth-links';
import { canRegister, canSendRegisterCode, type PhoneAvailability } from '../register-rules';
import { usePhoneAvailability } from '../use-phone-availability';
import { useSendCode } from '../use-send-code';

interface RegisterValues {
  phone: string;
  verificationCode: string;
  password: string;
  confirmPassword: string;
  salesName?: string;
  salesPhone?: string;
  agreement: boolean;
}

const rule = (name: keyof RegisterValues) => [schemaRule(registerRequestSchema, name)];

const agreementRule = {
  validator: async (_: unknown, checked: unknown) => {
    if (checked !== true) throw new Error(authMessages.agreementRequired);
  },
};

const underDevelopment = () => void notify('info', t.register.underDevelopment);

function PhoneHint({
  state,
  loginTo,
  onRecheck,
}: {
  state: PhoneAvailability;
  loginTo: string;
  onRecheck: () => void;
}) {
  switch (state) {
    case 'idle':
      return null;
    case 'checking':
      return (
        <span className={`${styles.hint} ${styles.checking}`} data-testid="phone-hint" data-state={state}>
          <LoadingOutlined /> {t.register.phoneChecking}
        </span>
      );
    case 'available':
      return (
        <span className={`${styles.hint} ${styles.available}`} data-testid="phone-hint" data-state={state}>
          <CheckCircleFilled /> {t.register.phoneAvailable}
        </span>
      );
    case 'taken':
      return (
        <span className={`${styles.hint} ${styles.taken}`} data-testid="phone-hint" data-state={state}>
          <CloseCircleFilled />
          <span>
            {t.register.phoneTaken}
            <Link to={loginTo}>{t.register.phoneTakenLogin}</Link>
          </span>
        </span>
      );
    case 'unknown':
      return (
        <span className={`${styles.hint} ${styles.unknown}`} data-testid="phone-hint" data-state={state}>
          <ExclamationCircleFilled />
          <span>
            {t.register.phoneUnknown}
            <button type="button" className={styles.inlineLink} onClick={onRecheck}>
              {t.register.recheck}
            </button>
          </span>
        </span>
      );
  }
}

/**
 * SPEC.md §2 register: phone with availability hint, code with send button and 60 s cooldown,
 * password with strength meter, confirmation, optional sales name and phone, agreement.
 */
export default function RegisterPage() {
  const [form] = Form.useForm<RegisterValues>();
  const { search } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const phone = Form.useWatch('phone', form);
  const verificationCode = Form.useWatch('verificationCode', form);
  const password = Form.useWatch('password', form);
  const confirmPassword = Form.useWatch('confirmPassword', form);
  const agreement = Form.useWatch('agreement', form);

  const availability = usePhoneAvailability(phone);
  const { codeInput, cooldown, sending, sendTo, label } = useSendCode(sendRegisterCode, {
    failed: t.register.sendFailed,
    retry: t.register.sendFailed,
  });
  const sendCode = () => sendTo((phone ?? '').trim());

  const mutation = useMutation({
    mutationFn: register,
    onSuccess: (message, values) => {
      void notify('success', message || t.register.success);
      void navigate(authLink(PATHS.login, { phone: values.phone, search }));
    },
    onError: (err, values) => {
      if (err instanceof ApiError && err.status === 409)
        void queryClient.invalidateQueries({ queryKey: authKeys.checkPhone(values.phone) });
      void notify('error', failureMessage(err, { failed: t.register.failed, retry: t.register.failedRetry }));
    },
  });

  const onFinish = (values: RegisterValues) => {
    // Enter in a field submits even while the button spins: one registration per page.
    if (mutation.isPending || mutation.isSuccess) return;
    const body = registerRequestSchema.parse(values);
    mutation.mutate({
      ...body,
      salesName: body.salesName || undefined,
      salesPhone: body.salesPhone || undefined,
    });
  };

  const enabled = canRegister(
    { phone, verificationCode, password, confirmPassword, agreement },
    availability.state,
  );
  const sendEnabled = canSendRegisterCode({
    availability: availability.state,
    cooldownActive: cooldown.active,
    sending,
  });

  return (
    <>
      <AuthHeader title={t.register.title} subtitle={t.register.subtitle} />
      <Form<RegisterValues>
        form={form}
        className={styles.form}
        layout="vertical"
        size="large"
        requiredMark={false}
        initialValues={{ phone: phoneFromSearch(search), agreement: false }}
        onFinish={onFinish}
        onFinishFailed={() => void notify('warning', t.register.incomplete)}
        data-testid="register-form"
      >
        <Form.Item
          name="phone"
          label={t.authForm.phone}
          rules={rule('phone')}
          extra={
            <PhoneHint
              state={availability.state}
              loginTo={authLink(PATHS.login, { phone, search })}
              onRecheck={availability.recheck}
            />
          }
        >
          <PhoneInput autoFocus data-testid="phone-input" />
        </Form.Item>
        <CodeField
          name="verificationCode"
          rules={rule('verificationCode')}
          buttonLabel={label}
          buttonDisabled={!sendEnabled}
          sending={sending}
          onSend={sendCode}
          inputRef={codeInput}
        />
        <Form.Item
          name="password"
          label={t.authForm.password}
          rules={rule('password')}
          extra={<PasswordStrength password={password ?? ''} />}
        >
          <Input.Password
            placeholder={t.register.passwordPlaceholder}
            autoComplete="new-password"
            data-testid="password-input"
          />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t.register.confirmPassword}
          dependencies={['password']}
          rules={rule('confirmPassword')}
        >
          <Input.Password
            placeholder={t.register.confirmPlaceholder}
            autoComplete="new-password"
            data-testid="confirm-input"
          />
        </Form.Item>
        <div className={styles.optionalGroup}>
          <Form.Item name="salesName" label={t.register.salesName} rules={rule('salesName')}>
            <Input
              placeholder={t.register.salesNamePlaceholder}
              maxLength={SALES_NAME_MAX}
              data-testid="sales-name-input"
            />
          </Form.Item>
          <Form.Item name="salesPhone" label={t.register.salesPhone} rules={rule('salesPhone')}>
            <PhoneInput placeholder={t.register.salesPhonePlaceholder} data-testid="sales-phone-input" />
          </Form.Item>
        </div>
        <Form.Item name="agreement" valuePropName="checked" rules={[agreementRule]}>
          <Checkbox className={styles.agreement} data-testid="agreement">
            {t.register.agreePrefix}
            <button type="button" className={styles.inlineLink} onClick={underDevelopment}>
              {t.register.userAgreement}
            </button>
            {t.register.and}
            <button type="button" className={styles.inlineLink} onClick={underDevelopment}>
              {t.register.privacyPolicy}
            </button>
          </Checkbox>
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          block
          className={styles.submit}
          disabled={!enabled}
          // Until the login page replaces this one (its code may still be loading).
          loading={mutation.isPending || mutation.isSuccess}
          data-testid="register-submit"
        >
          {t.register.submit}
        </Button>
        <p className={styles.footer}>
          {t.register.haveAccount}
          <Link to={authLink(PATHS.login, { search })} data-testid="login-link">
            {t.register.toLogin}
          </Link>
        </p>
      </Form>
    </>
  );
}
