import { Spin } from 'antd';
import styles from './PageLoading.module.css';

/** Shown while a page's chunk loads. */
export function PageLoading({ fullscreen = false }: { fullscreen?: boolean }) {
  return (
    <div className={fullscreen ? styles.fullscreen : styles.inline}>
      <Spin size="large" />
    </div>
  );
}
