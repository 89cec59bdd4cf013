import { formatTime } from '@gpu/shared/time';
import { type VoucherConfigView, voucherConfigInputSchema } from '@gpu/shared/vouchers';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { inTimeZone } from '../../test/time-zone';
import { configFormValues, configInput } from './voucher-config-form';

const row: VoucherConfigView = {
  id: 1,
  name: '新客券',
  description: '',
  faceAmount: 10,
  validDays: null,
  // The end of 2026-12-31 in Asia/Shanghai (the table shows "有效期至 2026-12-31").
  validUntil: '2026-12-31T15:59:59.999Z',
  regionId: null,
  regionName: null,
  gpuType: null,
  minOrderAmount: 0,
  perUserLimit: 1,
  enabled: true,
  archived: false,
  issuedCount: 0,
  createdAt: '2026-11-01T00:00:00.000Z',
};

// The browser's zone is not the platform's: behind it (with daylight saving) and ahead of it.
describe.each(['America/Los_Angeles', 'Asia/Tokyo', 'Asia/Shanghai'])(
  'voucher config 截止日期 in a browser in %s',
  (zone) => {
    inTimeZone(zone);

    it('runs in that zone', () => {
      const offset = new Date('2026-12-31T12:00:00Z').getTimezoneOffset();
      expect(offset).toBe({ 'America/Los_Angeles': 480, 'Asia/Tokyo': -540, 'Asia/Shanghai': -480 }[zone]);
    });

    it('a picked day ends at that day’s last instant in Shanghai', () => {
      for (const picked of [dayjs('2026-12-31'), dayjs('2026-12-31 17:45:12')]) {
        const input = configInput({ name: '新客券', faceAmount: 10, validDays: null, validUntil: picked });
        expect(input.validUntil).toBe('2026-12-31T15:59:59.999Z');
        expect(formatTime(input.validUntil, 'YYYY-MM-DD')).toBe('2026-12-31');
        expect(voucherConfigInputSchema.safeParse(input).success).toBe(true);
      }
    });

    it('editing shows the day the table shows, and saving it again keeps the instant', () => {
      const values = configFormValues(row);
      expect(values.validUntil?.format('YYYY-MM-DD')).toBe(formatTime(row.validUntil, 'YYYY-MM-DD'));
      expect(configInput(values).validUntil).toBe(row.validUntil);
    });

    it('no day is no end date', () => {
      expect(configInput({ validDays: 30, validUntil: null }).validUntil).toBeNull();
      expect(configFormValues({ ...row, validDays: 30, validUntil: null }).validUntil).toBeNull();
    });
  },
);
