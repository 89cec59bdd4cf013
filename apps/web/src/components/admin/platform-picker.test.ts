import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { inTimeZone } from '../../test/time-zone';
import { fromPicker, pickerDayEnd, toPicker } from './platform-picker';

// A browser behind Asia/Shanghai, on a day with daylight saving, and one ahead of it.
describe.each(['America/New_York', 'Asia/Tokyo'])('admin pickers in a browser in %s', (zone) => {
  inTimeZone(zone);

  it('shows a stored instant as Shanghai wall time', () => {
    expect(new Date('2026-07-01T02:00:00Z').getTimezoneOffset()).not.toBe(-480);
    expect(toPicker('2026-07-01T02:00:00.000Z').format('YYYY-MM-DD HH:mm:ss')).toBe('2026-07-01 10:00:00');
  });

  it('reads a picked wall time as Shanghai’s, and round-trips', () => {
    expect(fromPicker(dayjs('2026-07-01 10:00:00'))).toBe('2026-07-01T02:00:00.000Z');
    expect(fromPicker(toPicker('2026-12-31T16:30:00.000Z'))).toBe('2026-12-31T16:30:00.000Z');
  });

  it('ends a picked day at its last instant in Shanghai', () => {
    expect(pickerDayEnd(dayjs('2026-07-01'))).toBe('2026-07-01T15:59:59.999Z');
    expect(pickerDayEnd(dayjs('2026-07-01 23:30'))).toBe('2026-07-01T15:59:59.999Z');
  });
});
