import { LockOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input } from 'antd';
import type { ComponentProps } from 'react';
import { confirmRule, schemaRule } from '../../lib/form-rules';
import { PasswordStrength } from '../auth-form/PasswordStrength';
import styles from './SecurityCards.module.css';

/** What the card says (each account page's own texts). */
export interface ChangePasswordTexts {
  passwordTitle: string;
  newPassword: string;
  newPasswordPlaceholder: string;
  confirmPassword: string;
  passwordHint: string;
  savePassword: string;
}

interface Props {
  texts: ChangePasswordTexts;
  /** The current password's field: its name in the request and its label. */
  current: { name: string; label: string; testId: string };
  schema: Parameters<typeof schemaRule>[0];
  pending: boolean;
  /** Submits the current and the new password; resolves true when the card should clear. */
  onSubmit: (current: string, next: string) => Promise<boolean>;
  testId: string;
}

type Values = Record<string, string>;

/**
 * Change password, as customers and administrators both have it: the current password, the new
 * one with the register rules and the strength meter, and the confirmation.
 */
export function ChangePasswordCard({ texts, current, schema, pending, onSubmit, testId }: Props) {
  const [form] = Form.useForm<Values>();
  const password = Form.useWatch('newPassword', form);
  const rule = (name: string) => [schemaRule(schema, name)];
  const finish: ComponentProps<typeof Form<Values>>['onFinish'] = async (v) => {
    if (await onSubmit(v[current.name] ?? '', v.newPassword ?? '')) form.resetFields();
  };
  return (
    <Card
      title={
        <>
          <LockOutlined /> {texts.passwordTitle}
        </>
      }
      className={styles.card}
    >
      <Form<Values> form={form} layout="vertical" onFinish={finish} data-testid={testId}>
        <Form.Item name={current.name} label={current.label} rules={rule(current.name)}>
          <Input.Password autoComplete="current-password" data-testid={current.testId} />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label={texts.newPassword}
          rules={rule('newPassword')}
          extra={<PasswordStrength password={password ?? ''} />}
        >
          <Input.Password
            placeholder={texts.newPasswordPlaceholder}
            autoComplete="new-password"
            data-testid="new-password"
          />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={texts.confirmPassword}
          dependencies={['newPassword']}
          rules={[confirmRule('newPassword')]}
        >
          <Input.Password autoComplete="new-password" data-testid="confirm-password" />
        </Form.Item>
        <p className={styles.hint}>{texts.passwordHint}</p>
        <Button type="primary" htmlType="submit" loading={pending} data-testid="password-submit">
          {texts.savePassword}
        </Button>
      </Form>
    </Card>
  );
}
