import { type ReactNode, useId } from 'react';
import styles from './ChipGroup.module.css';

export interface ChipOption<V> {
  value: V;
  label: ReactNode;
}

export interface ChipGroupProps<V> {
  label: string;
  options: ChipOption<V>[];
  value: V;
  onChange: (value: V) => void;
  testId?: string;
}

/**
 * A single choice shown as a row of chips. Native radio buttons underneath: Tab enters the
 * group on the chosen chip, arrow keys move the choice.
 */
export function ChipGroup<V extends string | number | undefined>({
  label,
  options,
  value,
  onChange,
  testId,
}: ChipGroupProps<V>) {
  const name = useId();
  const selected = Math.max(
    0,
    options.findIndex((o) => o.value === value),
  );

  return (
    <fieldset className={styles.group} data-testid={testId}>
      <legend className={styles.legend}>{label}</legend>
      {options.map((option, i) => (
        <label key={String(option.value ?? '')} className={i === selected ? styles.chipOn : styles.chip}>
          <input
            type="radio"
            name={name}
            className={styles.input}
            checked={i === selected}
            onChange={() => onChange(option.value)}
          />
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}
