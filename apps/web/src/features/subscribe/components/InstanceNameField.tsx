import { SyncOutlined } from '@ant-design/icons';
import { INSTANCE_NAME_MAX } from '@gpu/shared/constants';
import { filterInstanceName } from '@gpu/shared/instances';
import { Button, Input } from 'antd';
import { type KeyboardEvent, useId } from 'react';
import { t } from '../../../locales/zh-CN';
import styles from './InstanceNameField.module.css';

const n = t.subscribe.name;

/** A key that types a character the name may not hold (SPEC.md §5: other key presses are blocked). */
export function isBlockedKey(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey) return false; // shortcuts: copy, paste, undo…
  return event.key.length === 1 && !/^[A-Za-z0-9-]$/.test(event.key);
}

export interface InstanceNameFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** The message of the first broken rule; shown once the field was touched. */
  error: string | null;
  touched: boolean;
  onBlur: () => void;
  onRegenerate: () => void;
}

/** The instance name with live filtering (illegal characters, leading and repeated hyphens). */
export function InstanceNameField({
  value,
  onChange,
  error,
  touched,
  onBlur,
  onRegenerate,
}: InstanceNameFieldProps) {
  const hintId = useId();
  const showError = touched && error !== null;
  return (
    <div className={styles.field}>
      <div className={styles.inputRow}>
        <Input
          size="large"
          value={value}
          maxLength={INSTANCE_NAME_MAX}
          showCount
          status={showError ? 'error' : undefined}
          placeholder={n.placeholder}
          aria-label={t.subscribe.sections.name}
          aria-invalid={showError}
          aria-describedby={hintId}
          autoComplete="off"
          spellCheck={false}
          onKeyDown={(event) => {
            if (isBlockedKey(event)) event.preventDefault();
          }}
          onChange={(event) => onChange(filterInstanceName(event.target.value))}
          onBlur={onBlur}
          data-testid="instance-name"
        />
        <Button size="large" icon={<SyncOutlined />} onClick={onRegenerate} aria-label={n.regenerate}>
          <span className={styles.regenerateText}>{n.regenerate}</span>
        </Button>
      </div>
      <p
        id={hintId}
        className={showError ? styles.error : styles.hint}
        role={showError ? 'alert' : undefined}
        data-testid="instance-name-message"
      >
        {showError ? error : n.hint}
      </p>
    </div>
  );
}
