import { t } from '../locales/zh-CN';
import styles from './PageLoading.module.css';

/**
 * Shown while a page's chunk loads: antd's large Spin (four dots turning) in plain CSS, since
 * it shows before antd has loaded.
 */
export function PageLoading({ fullscreen = false }: { fullscreen?: boolean }) {
  return (
    <div className={fullscreen ? styles.fullscreen : styles.inline}>
      <span className={styles.spin} role="status" aria-label={t.common.loading}>
        <i />
        <i />
        <i />
        <i />
      </span>
    </div>
  );
}
