import { VERIFICATION_CODE_LENGTH } from '@gpu/shared/constants';
import type { FormRule } from 'antd';
import { Button, Form, Input, type InputRef } from 'antd';
import type { Ref } from 'react';
import { t } from '../../locales/zh-CN';
import styles from './AuthForm.module.css';

interface Props {
  name: string;
  rules: FormRule[];
  buttonLabel: string;
  buttonDisabled: boolean;
  sending: boolean;
  onSend: () => void;
  inputRef?: Ref<InputRef>;
}

/** The verification-code input with its send button (label, cooldown and state from the page). */
export function CodeField({ name, rules, buttonLabel, buttonDisabled, sending, onSend, inputRef }: Props) {
  return (
    <Form.Item label={t.authForm.code} required>
      <div className={styles.codeRow}>
        <Form.Item name={name} rules={rules} noStyle>
          <Input
            ref={inputRef}
            placeholder={t.authForm.codePlaceholder}
            maxLength={VERIFICATION_CODE_LENGTH}
            inputMode="numeric"
            autoComplete="one-time-code"
            data-testid="code-input"
          />
        </Form.Item>
        <Button
          className={styles.codeButton}
          onClick={onSend}
          disabled={buttonDisabled}
          loading={sending}
          data-testid="send-code"
        >
          {buttonLabel}
        </Button>
      </div>
    </Form.Item>
  );
}
