import { CheckCircleFilled, ExclamationCircleFilled, LoadingOutlined, UpOutlined } from '@ant-design/icons';
import type { BillingType } from '@gpu/shared/constants';
import { formatMoney } from '@gpu/shared/money';
import { Button, Tooltip } from 'antd';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Price } from '../../../components/Price';
import { PATHS } from '../../../lib/routing/paths';
import { t } from '../../../locales/zh-CN';
import { type Figures, orderRunway, spendRate } from '../order-figures';
import styles from './OrderBar.module.css';

const b = t.subscribe.bar;

export type QuoteState = 'verifying' | 'verified' | 'changed' | null;

export interface OrderBarProps {
  figures: Figures;
  billingType: BillingType;
  duration: number;
  quote: QuoteState;
  /** Available balance in yuan; null while unknown. */
  balance: number | null;
  /** Why create is disabled (missing image, invalid name), or null when it may go. */
  blockedReason: string | null;
  creating: boolean;
  onCreate: () => void;
}

function QuoteBadge({ quote }: { quote: QuoteState }) {
  if (quote === 'verifying')
    return (
      <span className={styles.quote} data-testid="quote-state" data-state="verifying">
        <LoadingOutlined /> {b.verifying}
      </span>
    );
  if (quote === 'verified')
    return (
      <span className={`${styles.quote} ${styles.quoteOk}`} data-testid="quote-state" data-state="verified">
        <CheckCircleFilled /> {b.verified}
      </span>
    );
  if (quote === 'changed')
    return (
      <span className={`${styles.quote} ${styles.quoteWarn}`} data-testid="quote-state" data-state="changed">
        <ExclamationCircleFilled /> {b.quoteChanged}
      </span>
    );
  return null;
}

/**
 * The sticky bottom bar: original price, discount, voucher, payable (the shared pricing
 * function's figures) and the create button.
 */
export function OrderBar({
  figures,
  billingType,
  duration,
  quote,
  balance,
  blockedReason,
  creating,
  onCreate,
}: OrderBarProps) {
  const [detailsOpen, setDetailsOpen] = useState(false);
  const detailsId = useId();
  const hourly = billingType === 'hourly';
  const short = balance !== null && balance < figures.payableAmount;
  const rate = spendRate(figures, billingType, duration);
  const runway = orderRunway(balance, rate);
  const note = hourly
    ? b.hourlyNote
    : b.packageNote(duration, t.subscribe.durationUnit[billingType as Exclude<BillingType, 'hourly'>]);

  const button = (
    <Button
      type="primary"
      size="large"
      className={styles.create}
      disabled={blockedReason !== null}
      loading={creating}
      onClick={onCreate}
      data-testid="create-button"
    >
      {creating ? b.creating : b.create}
    </Button>
  );

  return (
    <section className={styles.bar} aria-label={b.details} data-testid="order-bar">
      <div className={styles.inner}>
        <dl id={detailsId} className={`${styles.breakdown} ${detailsOpen ? styles.breakdownOpen : ''}`}>
          <div>
            <dt>{b.original}</dt>
            <dd data-testid="bar-original">
              <Price value={figures.originalAmount} size="sm" />
            </dd>
          </div>
          <div>
            <dt>{b.discount}</dt>
            <dd className={figures.discountAmount > 0 ? styles.minus : ''} data-testid="bar-discount">
              −<Price value={figures.discountAmount} size="sm" />
            </dd>
          </div>
          <div>
            <dt>{b.voucher}</dt>
            <dd className={figures.voucherDeduction > 0 ? styles.minus : ''} data-testid="bar-voucher">
              −<Price value={figures.voucherDeduction} size="sm" />
            </dd>
          </div>
          <div className={styles.note}>
            <span>{note}</span>
            <QuoteBadge quote={quote} />
          </div>
        </dl>

        <div className={styles.checkout}>
          <div className={styles.total}>
            <div className={styles.totalMain}>
              <span className={styles.totalLabel}>{hourly ? b.hourlyPayable : b.payable}</span>
              <Price
                value={figures.payableAmount}
                size="lg"
                className={styles.payable}
                testId="bar-payable"
              />
            </div>
            <div className={styles.totalSub}>
              {balance !== null ? (
                <span className={short ? styles.balanceShort : styles.balance} data-testid="bar-balance">
                  {b.balance} {formatMoney(balance)}
                  {short ? (
                    <>
                      {' · '}
                      {b.insufficient} <Link to={PATHS.recharge}>{b.recharge}</Link>
                    </>
                  ) : null}
                </span>
              ) : null}
              <button
                type="button"
                className={styles.detailsToggle}
                aria-expanded={detailsOpen}
                aria-controls={detailsId}
                onClick={() => setDetailsOpen((open) => !open)}
                data-testid="bar-details-toggle"
              >
                {b.details}
                <UpOutlined className={detailsOpen ? styles.chevronOpen : styles.chevron} />
              </button>
            </div>
            {rate > 0 ? (
              <div className={styles.runway} data-testid="bar-runway">
                <span data-testid="bar-rate">
                  {(hourly ? b.spendRate : b.packageRate)(formatMoney(rate))}
                </span>
                {runway !== null ? (
                  <span data-testid="bar-hours-left">
                    {' · '}
                    {t.overview.hoursLeft(runway)}
                  </span>
                ) : null}
              </div>
            ) : null}
          </div>
          <div className={styles.action}>
            {blockedReason ? <Tooltip title={blockedReason}>{button}</Tooltip> : button}
            {blockedReason ? (
              <span className={styles.blocked} data-testid="bar-blocked">
                {blockedReason}
              </span>
            ) : null}
          </div>
        </div>
      </div>
    </section>
  );
}
