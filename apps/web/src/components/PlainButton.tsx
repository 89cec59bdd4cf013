import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router';
import styles from './PlainButton.module.css';

type Look = { type?: 'default' | 'primary' | 'text'; size?: 'middle' | 'large' };

const classOf = ({ type = 'default', size = 'middle' }: Look, extra?: string, iconOnly = false) =>
  [styles.btn, styles[type], size === 'large' ? styles.large : '', iconOnly ? styles.icon : '', extra ?? '']
    .filter(Boolean)
    .join(' ');

/**
 * A link that looks like antd's Button without loading antd: the homepage and the top navigation
 * render before (and without) antd, which only the other pages load (app/AntdScope.tsx).
 */
export function PlainLinkButton({ type, size, className, ...props }: LinkProps & Look) {
  return <Link {...props} className={classOf({ type, size }, className)} />;
}

/** An icon-only button in the same look (antd `<Button type="text" icon={…} />`). */
export function PlainIconButton({
  icon,
  type = 'text',
  className,
  ...props
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> & Look & { icon: ReactNode }) {
  return (
    <button {...props} type="button" className={classOf({ type }, className, true)}>
      {icon}
    </button>
  );
}
