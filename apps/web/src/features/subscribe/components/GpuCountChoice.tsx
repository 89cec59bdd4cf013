import { Price } from '../../../components/Price';
import { t } from '../../../locales/zh-CN';
import type { GpuCountBounds } from '../gpu-count';
import { FormSection } from './FormSection';
import { OptionGroup } from './OptionGroup';
import styles from './SubscribeForm.module.css';

const s = t.subscribe;

export interface GpuCountChoiceProps {
  bounds: GpuCountBounds;
  value: number;
  onChange: (count: number) => void;
  /** One GPU's hourly price as paid, shown beside the hint. */
  perGpuHourly: number;
}

/** How many GPUs: up to the machine's idle ones (a fixed count for overseas offers). */
export function GpuCountChoice({ bounds, value, onChange, perGpuHourly }: GpuCountChoiceProps) {
  return (
    <FormSection title={s.sections.gpuCount} testId="section-gpu-count">
      {bounds.max < 1 ? (
        <p className={styles.warn}>{s.noIdle}</p>
      ) : (
        <>
          <OptionGroup
            label={s.sections.gpuCount}
            options={Array.from({ length: Math.max(bounds.max, 8) }, (_, i) => i + 1)
              .filter((n) => !bounds.fixed || n === bounds.max)
              .map((n) => ({ value: n, label: s.cards(n), disabled: n > bounds.max }))}
            value={value}
            onChange={onChange}
            disabled={bounds.fixed}
            testId="gpu-count"
          />
          <p className={styles.hint}>
            {bounds.fixed ? s.gpuCountFixed : s.gpuCountHint(bounds.max)}
            {' · '}
            {s.perGpu} <Price value={perGpuHourly} unit={s.unit.hourly} size="sm" />
          </p>
        </>
      )}
    </FormSection>
  );
}
