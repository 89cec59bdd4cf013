import styles from './Token.module.css';

/**
 * An id, number, address or name that never breaks inside: one line, an ellipsis where it does
 * not fit, the whole text on hover (and for screen readers, which read the text itself).
 */
export function Token({ children, mono, testId }: { children: string; mono?: boolean; testId?: string }) {
  return (
    <span
      className={mono ? `${styles.token} ${styles.mono}` : styles.token}
      title={children}
      data-testid={testId}
    >
      {children}
    </span>
  );
}
