import { addDays, formatTime, shanghaiDayStart, shanghaiWallTime } from '@gpu/shared/time';
import dayjs, { type Dayjs } from 'dayjs';

/*
 * antd's date pickers hold dayjs values in the browser's own zone, while every admin screen
 * shows and means platform time (Asia/Shanghai). These helpers make a picker's wall-clock
 * fields Shanghai's, whatever the browser's zone: a stored instant is shown as Shanghai's wall
 * time, and a picked wall time or day is read as Shanghai's.
 */

/** A stored instant as a picker value: its Shanghai wall time. */
export const toPicker = (at: string): Dayjs => dayjs(formatTime(at));

/** The instant a picked wall time names in Shanghai (whole seconds), as ISO text. */
export const fromPicker = (v: Dayjs): string =>
  shanghaiWallTime(v.format('YYYY-MM-DDTHH:mm:ss')).toISOString();

/** The last instant (…23:59:59.999 in Shanghai) of a picked day, as ISO text. */
export const pickerDayEnd = (v: Dayjs): string =>
  new Date(shanghaiDayStart(addDays(v.format('YYYY-MM-DD'), 1)).getTime() - 1).toISOString();
