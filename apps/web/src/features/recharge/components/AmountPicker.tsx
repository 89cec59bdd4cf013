import { CheckOutlined } from '@ant-design/icons';
import { RECHARGE_MAX, RECHARGE_MIN, RECHARGE_PRESETS } from '@gpu/shared/constants';
import { isRechargeInputKey, sanitizeRechargeInput } from '@gpu/shared/payments';
import { Input } from 'antd';
import { useState } from 'react';
import { MoneyFigure } from '../../../components/Price';
import { t } from '../../../locales/zh-CN';
import styles from './RechargeForm.module.css';

const r = t.recharge;

interface Props {
  preset: number | null;
  custom: string;
  /** The other-amount message to show (after the field was touched), or null. */
  error: string | null;
  onPreset: (amount: number) => void;
  onCustom: (value: string) => void;
  onCustomBlur: () => void;
}

/**
 * SPEC.md §2/§3/§5: the preset amounts (each with its growth value) and, as the sixth tile, the
 * other amount, which takes digits and control keys only.
 */
export function AmountPicker({ preset, custom, error, onPreset, onCustom, onCustomBlur }: Props) {
  const [focused, setFocused] = useState(false);
  const customActive = preset === null && (focused || custom !== '');
  return (
    <>
      <div className={styles.presets} role="radiogroup" aria-label={r.amountLabel}>
        {RECHARGE_PRESETS.map((amount) => {
          const selected = preset === amount;
          return (
            // biome-ignore lint/a11y/useSemanticElements: a card-like choice; the radio role keeps it announced as one
            <button
              key={amount}
              type="button"
              role="radio"
              aria-checked={selected}
              className={`${styles.option} ${styles.preset} ${selected ? styles.selected : ''}`}
              onClick={() => onPreset(amount)}
              data-testid={`recharge-preset-${amount}`}
            >
              <span className={styles.presetAmount}>
                <MoneyFigure value={amount} />
              </span>
              <span className={styles.growth}>{r.growth(amount)}</span>
              {selected && (
                <span className={styles.check} aria-hidden>
                  <CheckOutlined />
                </span>
              )}
            </button>
          );
        })}
        <label
          className={`${styles.option} ${styles.customTile} ${customActive ? styles.selected : ''} ${
            error ? styles.invalid : ''
          }`}
          htmlFor="recharge-custom"
        >
          <span className={styles.customLabel}>{r.otherAmount}</span>
          <Input
            id="recharge-custom"
            variant="borderless"
            inputMode="numeric"
            autoComplete="off"
            prefix="¥"
            suffix={t.common.yuan}
            placeholder={r.otherAmountPlaceholder(RECHARGE_MIN, RECHARGE_MAX)}
            value={custom}
            aria-invalid={Boolean(error)}
            aria-describedby="recharge-custom-error"
            className={styles.customInput}
            onKeyDown={(event) => {
              if (!isRechargeInputKey(event.key, event.ctrlKey || event.metaKey || event.altKey))
                event.preventDefault();
            }}
            onChange={(event) => onCustom(sanitizeRechargeInput(event.target.value))}
            onFocus={() => setFocused(true)}
            onBlur={() => {
              setFocused(false);
              onCustomBlur();
            }}
            data-testid="recharge-custom"
          />
        </label>
      </div>
      <div
        id="recharge-custom-error"
        className={styles.error}
        role="alert"
        data-testid="recharge-custom-error"
      >
        {error}
      </div>
    </>
  );
}
