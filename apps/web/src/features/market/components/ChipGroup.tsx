import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
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
  const ref = useRef<HTMLFieldSetElement>(null);
  const [fade, setFade] = useState({ start: false, end: false });
  // On phones the row scrolls sideways: fade the edge that hides more chips, as the cue.
  const measure = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const start = el.scrollLeft > 1;
    const end = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setFade((f) => (f.start === start && f.end === end ? f : { start, end }));
  }, []);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    measure();
    // Its own width (rotation, resize) and its chips (the choices arrive later) both matter.
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    resized?.observe(el);
    const changed = new MutationObserver(measure);
    changed.observe(el, { childList: true });
    return () => {
      resized?.disconnect();
      changed.disconnect();
    };
  }, [measure]);
  const fadeClass = `${fade.start ? styles.fadeStart : ''} ${fade.end ? styles.fadeEnd : ''}`;
  const selected = Math.max(
    0,
    options.findIndex((o) => o.value === value),
  );

  return (
    <fieldset
      ref={ref}
      className={`${styles.group} ${fadeClass}`}
      onScroll={measure}
      data-testid={testId}
      data-scroll-more={fade.end || undefined}
    >
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
