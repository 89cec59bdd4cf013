import { formatMoney } from '@gpu/shared/money';
import { formatTime } from '@gpu/shared/time';
import type { VoucherView } from '@gpu/shared/vouchers';
import { Tag } from 'antd';
import { LinkButton } from '../../../components/LinkButton';
import { MoneyFigure } from '../../../components/Price';
import { t } from '../../../locales/zh-CN';
import { canUse, isExpiringCard, marketLinkFor, statusNow } from '../voucher-rules';
import styles from './VoucherCard.module.css';

const v = t.vouchers;

/** One voucher: amount, what is left, scope, expiry (with the 7-day mark) and Use when usable. */
export function VoucherCard({ voucher, now }: { voucher: VoucherView; now: number }) {
  const status = statusNow(voucher, now);
  const usable = canUse(voucher, now);
  const scope = [voucher.gpuType, voucher.regionName].filter(Boolean).join(' · ') || v.scopeAll;
  return (
    <div className={`${styles.card} ${usable ? '' : styles.inactive}`} data-testid="voucher-card">
      <div className={styles.left}>
        <div className={styles.amount}>
          <span data-testid="voucher-remaining">
            <MoneyFigure value={voucher.remainingAmount} />
          </span>
        </div>
        <div className={styles.face}>
          {v.remaining} · {v.face(formatMoney(voucher.amount))}
        </div>
        <div className={styles.face}>
          {voucher.minOrderAmount > 0 ? v.minOrder(formatMoney(voucher.minOrderAmount)) : v.noMinimum}
        </div>
      </div>
      <div className={styles.right}>
        <div className={styles.title}>
          <span className={styles.name}>{voucher.name}</span>
          {status !== 'UNUSED' ? <Tag>{v.statuses[status]}</Tag> : null}
          {isExpiringCard(voucher, now) ? (
            <Tag color="orange" data-testid="voucher-expiring">
              {v.expiring}
            </Tag>
          ) : null}
        </div>
        <div className={styles.meta}>{scope}</div>
        <div className={styles.meta}>{v.expires(formatTime(voucher.expiresAt, 'YYYY-MM-DD HH:mm'))}</div>
        <div className={styles.meta}>
          {v.code} {voucher.voucherCode}
        </div>
        {usable ? (
          <LinkButton
            to={marketLinkFor(voucher)}
            type="primary"
            size="small"
            className={styles.use}
            data-testid="voucher-use"
          >
            {v.use}
          </LinkButton>
        ) : null}
      </div>
    </div>
  );
}
