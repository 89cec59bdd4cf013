import type { PackageType } from '@gpu/shared/pricing';
import { t } from '../../../locales/zh-CN';
import { durationBounds } from '../subscribe-params';
import { FormSection } from './FormSection';
import { OptionGroup } from './OptionGroup';
import styles from './SubscribeForm.module.css';

const s = t.subscribe;

/** How many periods of a package (SPEC.md §5 limits per billing type). */
export function DurationChoice({
  billingType,
  value,
  onChange,
}: {
  billingType: PackageType;
  value: number;
  onChange: (duration: number) => void;
}) {
  const limits = durationBounds(billingType);
  const unit = s.durationUnit[billingType];
  return (
    <FormSection title={s.sections.duration} testId="section-duration">
      <OptionGroup
        label={s.sections.duration}
        options={Array.from({ length: limits.max - limits.min + 1 }, (_, i) => limits.min + i).map((n) => ({
          value: n,
          label: s.durationOption(n, unit),
        }))}
        value={value}
        onChange={onChange}
        testId="duration"
      />
      <p className={styles.hint}>{s.durationHint(limits.max, unit)}</p>
    </FormSection>
  );
}
