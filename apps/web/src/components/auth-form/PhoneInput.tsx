import { PHONE_LENGTH } from '@gpu/shared/constants';
import { Input, type InputProps } from 'antd';
import { t } from '../../locales/zh-CN';

/** The phone input of SPEC.md §5: limited to 11 characters, numeric keyboard on phones. */
export function PhoneInput(props: InputProps) {
  return (
    <Input
      placeholder={t.authForm.phonePlaceholder}
      maxLength={PHONE_LENGTH}
      inputMode="numeric"
      autoComplete="tel"
      {...props}
    />
  );
}
