import { GlobalOutlined, SearchOutlined, UndoOutlined } from '@ant-design/icons';
import { BILLING_TYPES, type BillingType, GPU_COUNT_MAX, GPU_COUNT_MIN } from '@gpu/shared/constants';
import type { MarketList } from '@gpu/shared/market';
import { Button, Input, Segmented, Select, Skeleton } from 'antd';
import { useEffect, useState } from 'react';
import { t } from '../../../locales/zh-CN';
import { hasNarrowingFilters, type MarketFilters } from '../market-filters';
import { ChipGroup } from './ChipGroup';
import styles from './MarketFilterBar.module.css';

const m = t.market;
const KEYWORD_DEBOUNCE_MS = 400;

const BILLING_OPTIONS = BILLING_TYPES.map((value) => ({ value, label: m.billing[value] }));
const COUNT_OPTIONS = [
  { value: 0, label: m.anyCount },
  ...Array.from({ length: GPU_COUNT_MAX - GPU_COUNT_MIN + 1 }, (_, i) => ({
    value: GPU_COUNT_MIN + i,
    label: m.countOption(GPU_COUNT_MIN + i),
  })),
];

function ChipPlaceholders() {
  return (
    <span className={styles.placeholders} aria-hidden="true">
      {[72, 80, 64, 88].map((width) => (
        <Skeleton.Button key={width} active size="default" style={{ width, minWidth: width }} />
      ))}
    </span>
  );
}

export interface MarketFilterBarProps {
  filters: MarketFilters;
  regions: MarketList['regions'];
  gpuModels: string[];
  /** `replace` for typing in the search box (one history entry per search, not per key). */
  onChange: (patch: Partial<MarketFilters>, options?: { replace?: boolean }) => void;
  onReset: () => void;
  /** The first answer (with the region and model choices) is still on its way. */
  loading?: boolean;
}

/** SPEC.md §2 market filters: billing mode, region, GPU model, GPU count, and host search. */
export function MarketFilterBar({
  filters,
  regions,
  gpuModels,
  onChange,
  onReset,
  loading,
}: MarketFilterBarProps) {
  const [keyword, setKeyword] = useState(filters.keyword ?? '');

  // The URL changed (back button, reset): show its keyword.
  useEffect(() => {
    setKeyword(filters.keyword ?? '');
  }, [filters.keyword]);

  // Typing searches after a pause.
  useEffect(() => {
    const next = keyword.trim();
    if (next === (filters.keyword ?? '')) return;
    const timer = setTimeout(
      () => onChange({ keyword: next || undefined }, { replace: true }),
      KEYWORD_DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
  }, [keyword, filters.keyword, onChange]);

  // A region or model chosen in the URL that is no longer offered still shows as chosen.
  const regionOptions = [
    { value: undefined, label: m.all },
    ...regions.map((r) => ({
      value: r.id,
      label: r.overseas ? (
        <>
          <GlobalOutlined />
          {r.name}
        </>
      ) : (
        r.name
      ),
    })),
  ];
  const models =
    filters.gpuModel && !gpuModels.includes(filters.gpuModel) ? [...gpuModels, filters.gpuModel] : gpuModels;
  const modelOptions = [
    { value: undefined, label: m.all },
    ...models.map((name) => ({ value: name, label: name })),
  ];

  return (
    <section className={styles.bar} aria-label={m.title}>
      <div className={styles.row}>
        <span className={styles.label} id="market-billing-label">
          {m.billingLabel}
        </span>
        <Segmented<BillingType>
          aria-labelledby="market-billing-label"
          options={BILLING_OPTIONS}
          value={filters.billingType}
          onChange={(billingType) => onChange({ billingType })}
          data-testid="filter-billing"
        />
      </div>
      <div className={styles.row}>
        <span className={styles.label}>{m.regionLabel}</span>
        <ChipGroup
          label={m.regionLabel}
          options={regionOptions}
          value={filters.regionId}
          onChange={(regionId) => onChange({ regionId })}
          testId="filter-region"
        />
        {loading ? <ChipPlaceholders /> : null}
      </div>
      <div className={styles.row}>
        <span className={styles.label}>{m.modelLabel}</span>
        <ChipGroup
          label={m.modelLabel}
          options={modelOptions}
          value={filters.gpuModel}
          onChange={(gpuModel) => onChange({ gpuModel })}
          testId="filter-model"
        />
        {loading ? <ChipPlaceholders /> : null}
      </div>
      <div className={`${styles.row} ${styles.last}`}>
        <span className={styles.label}>{m.countLabel}</span>
        <div className={styles.controls}>
          <Select<number>
            className={styles.count}
            aria-label={m.countLabel}
            options={COUNT_OPTIONS}
            value={filters.gpuCount ?? 0}
            onChange={(n) => onChange({ gpuCount: n > 0 ? n : undefined })}
            data-testid="filter-count"
          />
          <Input
            className={styles.search}
            allowClear
            prefix={<SearchOutlined className={styles.searchIcon} />}
            placeholder={m.searchPlaceholder}
            aria-label={m.searchPlaceholder}
            value={keyword}
            maxLength={64}
            onChange={(event) => setKeyword(event.target.value)}
            onPressEnter={() => onChange({ keyword: keyword.trim() || undefined }, { replace: true })}
            data-testid="filter-keyword"
          />
          {hasNarrowingFilters(filters) ? (
            <Button type="link" icon={<UndoOutlined />} onClick={onReset} className={styles.reset}>
              {m.reset}
            </Button>
          ) : null}
        </div>
      </div>
    </section>
  );
}
