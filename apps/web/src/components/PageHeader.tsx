import type { ReactNode } from 'react';
import styles from './PageHeader.module.css';

/** A console page's heading: title, one line of explanation, actions on the right. */
export function PageHeader({
  title,
  subtitle,
  extra,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  extra?: ReactNode;
}) {
  return (
    <header className={styles.header} data-testid="page-header">
      <div className={styles.text}>
        <h1 className={styles.title}>{title}</h1>
        {subtitle ? <p className={styles.subtitle}>{subtitle}</p> : null}
      </div>
      {extra ? <div className={styles.extra}>{extra}</div> : null}
    </header>
  );
}
