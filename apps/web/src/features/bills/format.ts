import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

/** Every time on the console is shown in the platform's zone, whatever the browser's. */
export const TIME_ZONE = 'Asia/Shanghai';

const at = (iso: string | Date) => dayjs(iso).tz(TIME_ZONE);

/** "2025-03-01 14:05:09" in Asia/Shanghai; "-" for no time. */
export const formatTime = (iso: string | Date | null | undefined, pattern = 'YYYY-MM-DD HH:mm:ss') =>
  iso ? at(iso).format(pattern) : '-';

/** "YYYY-MM-DD" of an instant in Asia/Shanghai (the server's day boundaries). */
export const shanghaiDate = (iso: string | Date) => at(iso).format('YYYY-MM-DD');

/**
 * How long until `until`, in words: "2天3小时", "5小时12分钟", "8分钟"; null once it has passed.
 */
export function formatRemaining(until: string | Date, now: Date = new Date()): string | null {
  const ms = new Date(until).getTime() - now.getTime();
  if (ms <= 0) return null;
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return hours > 0 ? `${days}天${hours}小时` : `${days}天`;
  if (hours > 0) return mins > 0 ? `${hours}小时${mins}分钟` : `${hours}小时`;
  return `${Math.max(mins, 1)}分钟`;
}
