import { t } from '../locales/zh-CN';
import styles from './RouteError.module.css';

/** A route failed to render or its chunk failed to load (e.g. after a new deployment). */
export function RouteError() {
  return (
    <div className={styles.wrap} role="alert">
      <h1>{t.error.title}</h1>
      <p>{t.error.text}</p>
      <button type="button" onClick={() => window.location.reload()}>
        {t.common.reload}
      </button>
    </div>
  );
}
