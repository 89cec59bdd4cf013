import { GiftOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { formatMoney } from '@gpu/shared/money';
import { formatTime } from '@gpu/shared/time';
import { Button, Empty, Input, Modal, Segmented, Tag } from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { MoneyFigure } from '../../../components/Price';
import { t } from '../../../locales/zh-CN';
import {
  filterVouchers,
  isApplicable,
  isExpired,
  isExpiring,
  SELECTOR_EXPIRING_MS,
  SUBSCRIBE_EXPIRING_MS,
  VOUCHER_FILTERS,
  type Voucher,
  type VoucherFilter,
} from '../vouchers';
import styles from './VoucherSelector.module.css';

const v = t.subscribe.voucher;

export interface VoucherSelectorProps {
  vouchers: Voucher[];
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  order: { gpuType: string; regionId: number; amount?: number };
  selected: Voucher | null;
  onSelect: (voucher: Voucher | null) => void;
  /** What the chosen voucher takes off this order (yuan). */
  deduction: number;
}

function VoucherCard({
  voucher,
  now,
  applicable,
  chosen,
  onUse,
}: {
  voucher: Voucher;
  now: number;
  applicable: boolean;
  chosen: boolean;
  onUse: () => void;
}) {
  const expired = isExpired(voucher, now);
  const used = voucher.status === 'USED';
  const expiring = isExpiring(voucher, now, SELECTOR_EXPIRING_MS);
  return (
    <li className={`${styles.card} ${applicable ? '' : styles.cardOff}`} data-testid="voucher-card">
      <div className={styles.amount}>
        <span className={styles.amountValue}>
          <MoneyFigure value={voucher.remainingAmount} />
        </span>
        <span className={styles.amountLabel}>{v.remaining}</span>
      </div>
      <div className={styles.info}>
        <div className={styles.nameRow}>
          <strong className={styles.name}>{voucher.name || voucher.code}</strong>
          {used ? <Tag>{v.used}</Tag> : expired ? <Tag>{v.expired}</Tag> : null}
          {expiring ? <Tag color="orange">{v.expiring}</Tag> : null}
        </div>
        <div className={styles.scope}>
          {voucher.gpuType || v.anyGpu} · {voucher.regionName || v.anyRegion} ·{' '}
          {v.faceValue(formatMoney(voucher.amount))}
        </div>
        <div className={styles.expiry}>
          {voucher.expiresAt ? v.expires(formatTime(voucher.expiresAt, 'YYYY-MM-DD HH:mm')) : v.noExpiry}
          {!applicable && !used && !expired ? ` · ${v.notApplicable}` : ''}
        </div>
      </div>
      <Button
        type={chosen ? 'default' : 'primary'}
        ghost={!chosen}
        disabled={!applicable || chosen}
        onClick={onUse}
        aria-label={`${v.use} ${voucher.name}`}
      >
        {chosen ? v.selected : v.use}
      </Button>
    </li>
  );
}

/**
 * The voucher row of the subscribe screen and its dialog (SPEC.md §2): status filter (all,
 * unused, expiring soon) and text search over voucher name, GPU type and region.
 */
export function VoucherSelector({
  vouchers,
  loading,
  failed,
  onRetry,
  order,
  selected,
  onSelect,
  deduction,
}: VoucherSelectorProps) {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState<VoucherFilter>('all');
  const [search, setSearch] = useState('');
  // One clock reading per render of the list keeps the filters consistent with each other.
  const now = Date.now();
  const applicable = vouchers.filter((x) => isApplicable(x, now, order));
  const expiringSoon = applicable.filter((x) => isExpiring(x, now, SUBSCRIBE_EXPIRING_MS)).length;
  const shown = useMemo(() => filterVouchers(vouchers, filter, search, now), [vouchers, filter, search, now]);

  const choose = (voucher: Voucher | null) => {
    onSelect(voucher);
    setOpen(false);
  };

  let status: ReactNode;
  if (loading) status = <span className={styles.muted}>{t.common.loading}</span>;
  else if (failed)
    status = (
      <span className={styles.failed} data-testid="voucher-load-failed">
        {v.loadFailed}
        <Button type="link" size="small" icon={<ReloadOutlined />} onClick={onRetry}>
          {t.subscribe.retry}
        </Button>
      </span>
    );
  else if (selected)
    status = (
      <span className={styles.chosen} data-testid="voucher-chosen">
        <Tag color="red" className={styles.chosenTag}>
          {v.deduct(formatMoney(deduction))}
        </Tag>
        {selected.name}
      </span>
    );
  else
    status = (
      <span className={styles.muted} data-testid="voucher-summary">
        {applicable.length > 0 ? v.available(applicable.length) : v.noneAvailable}
        {expiringSoon > 0 ? <span className={styles.warn}>（{v.expiringSoon(expiringSoon)}）</span> : null}
      </span>
    );

  return (
    <div className={styles.row}>
      <GiftOutlined className={styles.icon} />
      <div className={styles.status}>{status}</div>
      <div className={styles.rowActions}>
        {selected ? (
          <Button size="small" type="text" onClick={() => onSelect(null)}>
            {v.clear}
          </Button>
        ) : null}
        <Button onClick={() => setOpen(true)} data-testid="voucher-open">
          {selected ? v.change : v.choose}
        </Button>
      </div>

      <Modal
        open={open}
        title={v.dialogTitle}
        onCancel={() => setOpen(false)}
        footer={null}
        width={640}
        destroyOnHidden
        data-testid="voucher-dialog"
      >
        <div className={styles.tools}>
          <Segmented<VoucherFilter>
            aria-label={v.filterLabel}
            options={VOUCHER_FILTERS.map((f) => ({ value: f, label: v.filters[f] }))}
            value={filter}
            onChange={setFilter}
            data-testid="voucher-filter"
          />
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder={v.searchPlaceholder}
            aria-label={v.searchPlaceholder}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className={styles.search}
            data-testid="voucher-search"
          />
        </div>
        <button
          type="button"
          className={`${styles.noneOption} ${selected ? '' : styles.noneChosen}`}
          onClick={() => choose(null)}
          aria-pressed={!selected}
        >
          {v.none}
        </button>
        {failed ? (
          <p className={styles.failed}>{v.loadFailed}</p>
        ) : shown.length === 0 ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={vouchers.length === 0 ? v.empty : v.emptyFiltered}
            data-testid="voucher-empty"
          />
        ) : (
          <ul className={styles.list} data-testid="voucher-list">
            {shown.map((voucher) => (
              <VoucherCard
                key={voucher.id}
                voucher={voucher}
                now={now}
                applicable={isApplicable(voucher, now, order)}
                chosen={selected?.id === voucher.id}
                onUse={() => choose(voucher)}
              />
            ))}
          </ul>
        )}
      </Modal>
    </div>
  );
}
