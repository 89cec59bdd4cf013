import { PHONE_PATTERN } from '@gpu/shared/auth';
import type { FormInstance, InputRef } from 'antd';
import { useRef, useState } from 'react';
import { failureMessage, waitSecondsOf } from '../../lib/failure-message';
import { notify } from '../../lib/feedback';
import { t } from '../../locales/zh-CN';
import { type CodeSent, showTestCode } from './api/send-code';
import { sendCodeLabel } from './register-rules';
import { useCooldown } from './use-cooldown';

/**
 * The send-code button of every form that asks for an SMS code: sends, starts the cooldown (or the
 * server's wait on 429), shows the test code, focuses the code input; `label` is the button text.
 */
export function useSendCode(
  send: (phone: string) => Promise<CodeSent>,
  failed: { failed: string; retry: string },
) {
  const codeInput = useRef<InputRef>(null);
  const cooldown = useCooldown();
  const [sending, setSending] = useState(false);
  const [sentBefore, setSentBefore] = useState(false);

  const sendTo = async (phone: string) => {
    setSending(true);
    try {
      const sent = await send(phone);
      cooldown.start();
      setSentBefore(true);
      void notify('success', t.authForm.codeSent);
      showTestCode(sent);
      codeInput.current?.focus();
    } catch (err) {
      const wait = waitSecondsOf(err);
      if (wait) cooldown.start(wait);
      void notify('error', failureMessage(err, failed));
    } finally {
      setSending(false);
    }
  };

  const label = sendCodeLabel(
    { sending, remaining: cooldown.remaining, sentBefore },
    {
      send: t.authForm.sendCode,
      sending: t.authForm.sending,
      cooldown: t.authForm.cooldown,
      resend: t.authForm.resend,
    },
  );
  return { codeInput, cooldown, sending, sendTo, label };
}

/** The form's phone field, trimmed, when it is a valid phone; otherwise warns, marks the field, null. */
export function validPhoneOf(form: FormInstance, field: string): string | null {
  const phone = String(form.getFieldValue(field) ?? '').trim();
  if (PHONE_PATTERN.test(phone)) return phone;
  void notify('warning', t.authForm.phoneInvalidWarning);
  void form.validateFields([field]).catch(() => undefined);
  return null;
}
