import { BILLING_TYPES, type BillingType } from '@gpu/shared/constants';
import { formatMoney } from '@gpu/shared/money';
import { Price } from '../../../components/Price';
import { t } from '../../../locales/zh-CN';
import { type OrderInput, orderFigures } from '../order-figures';
import { FormSection } from './FormSection';
import { OptionGroup } from './OptionGroup';
import styles from './SubscribeForm.module.css';

const s = t.subscribe;

export interface BillingChoiceProps {
  item: OrderInput['item'];
  packagePrices: OrderInput['packagePrices'];
  discountLive: boolean;
  /** Package prices still loading: package cards show no price yet. */
  pricingPending: boolean;
  value: BillingType;
  onChange: (billingType: BillingType) => void;
}

/** The billing cards; each shows one GPU for one period of it. */
export function BillingChoice({
  item,
  packagePrices,
  discountLive,
  pricingPending,
  value,
  onChange,
}: BillingChoiceProps) {
  const options = BILLING_TYPES.map((type) => {
    const unit = orderFigures({
      item,
      billingType: type,
      duration: 1,
      gpuAmount: 1,
      packagePrices,
      discountLive,
      voucherRemaining: null,
    });
    const ready = type === 'hourly' || !pricingPending;
    return {
      value: type,
      label: s.billing[type],
      ariaLabel: ready
        ? `${s.billing[type]} ${formatMoney(unit.discountedUnitPrice)}${s.unit[type]}`
        : undefined,
      extra: ready ? <Price value={unit.discountedUnitPrice} unit={s.unit[type]} size="sm" /> : '…',
    };
  });
  return (
    <FormSection title={s.sections.billing} testId="section-billing">
      <OptionGroup
        variant="cards"
        label={s.sections.billing}
        options={options}
        value={value}
        onChange={onChange}
        testId="billing-choice"
      />
      <p className={styles.hint}>{s.billingHint[value]}</p>
    </FormSection>
  );
}
