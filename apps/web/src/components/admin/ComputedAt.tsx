import { formatTime } from '@gpu/shared/time';
import { ta } from '../../locales/zh-CN.admin';
import styles from './ComputedAt.module.css';

/**
 * 统计于 HH:mm:ss under figures the server reuses for a while (issue 33), so their age is never
 * hidden; nothing when the answer does not say when it was computed.
 */
export function ComputedAt({ at, testId }: { at: string | undefined; testId: string }) {
  if (!at) return null;
  return (
    <span className={styles.computedAt} data-testid={testId}>
      {ta.adminOps.computedAt(formatTime(at, 'HH:mm:ss'))}
    </span>
  );
}
