import { UndoOutlined } from '@ant-design/icons';
import { BILLING_TYPES, type BillingType } from '@gpu/shared/constants';
import type { BillKind } from '@gpu/shared/labels';
import { shanghaiToday } from '@gpu/shared/time';
import { Button, DatePicker, Input, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { t } from '../../../locales/zh-CN';
import { useInstances } from '../../instances';
import type { BillFilters } from '../api/list-bills';
import styles from './BillFilterBar.module.css';

const b = t.bills;

export interface BillFilterBarProps {
  value: BillFilters;
  /** The kinds the type filter offers (all four on the expense details; orders: three). */
  kinds: readonly BillKind[];
  onChange: (next: BillFilters) => void;
}

/** Billing type, kind, date range (Shanghai days), instance and the order/bill number. */
export function BillFilterBar({ value, kinds, onChange }: BillFilterBarProps) {
  const instances = useInstances({ page: 1, size: 100 }, { live: false });
  const range: [Dayjs, Dayjs] | null = value.from && value.to ? [dayjs(value.from), dayjs(value.to)] : null;
  const set = (patch: Partial<BillFilters>) => onChange({ ...value, ...patch });
  const dirty = Object.values(value).some((v) => v !== undefined);

  return (
    <div className={styles.bar}>
      <Select<BillingType | ''>
        className={styles.select}
        value={value.billingType ?? ''}
        aria-label={b.billingType}
        onChange={(v) => set({ billingType: v || undefined })}
        options={[
          { value: '', label: `${b.billingTypeShort}：${b.all}` },
          ...BILLING_TYPES.map((v) => ({ value: v, label: t.instances.billingType[v] })),
        ]}
      />
      <Select<BillKind | ''>
        className={styles.select}
        value={value.kind ?? ''}
        aria-label={b.kindLabel}
        onChange={(v) => set({ kind: v || undefined })}
        options={[
          { value: '', label: `${b.kindLabel}：${b.all}` },
          ...kinds.map((k) => ({ value: k, label: b.kind[k] })),
        ]}
      />
      <DatePicker.RangePicker
        className={styles.range}
        value={range}
        allowClear
        aria-label={b.dateRange}
        // Days are Shanghai days: nothing after today there, whatever the browser's zone.
        disabledDate={(d) => d.format('YYYY-MM-DD') > shanghaiToday()}
        onChange={(dates) =>
          set({
            from: dates?.[0]?.format('YYYY-MM-DD') ?? undefined,
            to: dates?.[1]?.format('YYYY-MM-DD') ?? undefined,
          })
        }
      />
      <Select<number | ''>
        className={styles.instance}
        value={value.instanceId ?? ''}
        aria-label={b.instance}
        showSearch={{ optionFilterProp: 'label' }}
        loading={instances.isLoading}
        onChange={(v) => set({ instanceId: v || undefined })}
        options={[
          { value: '', label: b.allInstances },
          ...(instances.data?.list ?? []).map((i) => ({ value: i.id, label: `${i.name} (#${i.id})` })),
        ]}
      />
      <Input.Search
        // Keyed on the filter, so 重置 empties what was typed too.
        key={value.recordNo ?? ''}
        className={styles.search}
        defaultValue={value.recordNo}
        allowClear
        placeholder={b.searchNo}
        aria-label={b.searchNo}
        onSearch={(v) => set({ recordNo: v.trim() || undefined })}
        data-testid="bill-search"
      />
      <Button icon={<UndoOutlined />} disabled={!dirty} onClick={() => onChange({})}>
        {b.reset}
      </Button>
    </div>
  );
}
