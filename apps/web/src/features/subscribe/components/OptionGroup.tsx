import { type ReactNode, useId } from 'react';
import styles from './OptionGroup.module.css';

export interface Option<V extends string | number> {
  value: V;
  label: ReactNode;
  /** A second line under the label (e.g. a price). */
  extra?: ReactNode;
  /** The radio's name when the label is not plain text (or should say more). */
  ariaLabel?: string;
  disabled?: boolean;
}

export interface OptionGroupProps<V extends string | number> {
  options: Option<V>[];
  value: V | null;
  onChange: (value: V) => void;
  label: string;
  /** `cards` are large tiles (billing), `chips` small pills (counts, durations), `list` rows. */
  variant?: 'cards' | 'chips' | 'list';
  testId?: string;
  disabled?: boolean;
}

/**
 * Native radio buttons styled as tiles: one tab stop per group, arrow keys move and choose,
 * disabled options are skipped, and screen readers announce "n of m".
 */
export function OptionGroup<V extends string | number>({
  options,
  value,
  onChange,
  label,
  variant = 'chips',
  testId,
  disabled = false,
}: OptionGroupProps<V>) {
  const name = useId();
  return (
    <fieldset
      className={`${styles.group} ${styles[`${variant}Group`]}`}
      data-testid={testId}
      disabled={disabled}
    >
      <legend className={styles.legend}>{label}</legend>
      {options.map((option) => {
        const checked = option.value === value;
        return (
          <label
            key={String(option.value)}
            className={`${styles.option} ${styles[variant]} ${checked ? styles.checked : ''}`}
            data-value={option.value}
          >
            <input
              type="radio"
              className={styles.input}
              name={name}
              value={String(option.value)}
              checked={checked}
              disabled={option.disabled}
              aria-label={option.ariaLabel ?? (typeof option.label === 'string' ? option.label : undefined)}
              onChange={() => onChange(option.value)}
            />
            <span className={styles.label}>{option.label}</span>
            {option.extra ? <span className={styles.extra}>{option.extra}</span> : null}
          </label>
        );
      })}
    </fieldset>
  );
}
