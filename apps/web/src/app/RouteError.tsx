import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { t } from '../locales/zh-CN';
import styles from './RouteError.module.css';

const RELOADED_KEY = 'gpu.route-error-reload';

/** A lazy route's code could not be fetched (a new deployment, a dropped connection). */
export const isChunkLoadError = (error: unknown) =>
  error instanceof Error &&
  /dynamically imported module|Importing a module script failed|error loading dynamically imported/i.test(
    error.message,
  );

/**
 * Reloads once for a chunk that failed to load: the fresh page fetches the current build's
 * chunks. Once per page address (sessionStorage), so a chunk that keeps failing shows the error.
 */
function reloadOnce(): boolean {
  try {
    const at = window.location.pathname + window.location.search;
    if (window.sessionStorage.getItem(RELOADED_KEY) === at) return false;
    window.sessionStorage.setItem(RELOADED_KEY, at);
  } catch {
    return false;
  }
  window.location.reload();
  return true;
}

/** A route failed to render or its chunk failed to load (e.g. after a new deployment). */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => {
    // Written to the console so the browser tests' failure report (and a user's devtools) say why.
    console.error('route error', error);
    if (isChunkLoadError(error)) reloadOnce();
  }, [error]);
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
