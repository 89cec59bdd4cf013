import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';

const DAY = 'YYYY-MM-DD';
const toDay = (v?: string) => (v ? dayjs(v, DAY) : null);

/** A from/to day filter over a query's `startDate`/`endDate` (YYYY-MM-DD, either end may be open). */
export function DayRangeFilter({
  startDate,
  endDate,
  onChange,
  placeholder,
  mobile,
  ariaLabel,
}: {
  startDate?: string;
  endDate?: string;
  onChange: (range: { startDate?: string; endDate?: string }) => void;
  placeholder: [string, string];
  mobile: boolean;
  ariaLabel?: string;
}) {
  return (
    <DatePicker.RangePicker
      placeholder={placeholder}
      allowEmpty={[true, true]}
      inputReadOnly={mobile}
      value={[toDay(startDate), toDay(endDate)]}
      onChange={(range) => {
        const r = range as [Dayjs | null, Dayjs | null] | null;
        onChange({ startDate: r?.[0]?.format(DAY), endDate: r?.[1]?.format(DAY) });
      }}
      aria-label={ariaLabel}
    />
  );
}
