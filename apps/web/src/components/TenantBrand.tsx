import { useState } from 'react';
import { Link } from 'react-router';
import { useTenant } from '../lib/tenant-context';
import styles from './TenantBrand.module.css';

interface Props {
  /** Logo height in px. */
  size?: number;
  /** Light text for dark backgrounds (uses logoDarkUrl when set). */
  inverse?: boolean;
  className?: string;
}

/** The tenant's logo and name, linking home. A monogram stands in for a missing logo. */
export function TenantBrand({ size = 32, inverse = false, className }: Props) {
  const tenant = useTenant();
  const logo = (inverse && tenant.logoDarkUrl) || tenant.logoUrl;
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <Link to="/" className={`${styles.brand} ${inverse ? styles.inverse : ''} ${className ?? ''}`}>
      {logo && failed !== logo ? (
        <img
          src={logo}
          alt=""
          width={size}
          height={size}
          className={styles.logo}
          onError={() => setFailed(logo)}
        />
      ) : (
        <span
          className={styles.monogram}
          style={{ width: size, height: size, fontSize: size * 0.5 }}
          aria-hidden
        >
          {tenant.tenantName.slice(0, 1)}
        </span>
      )}
      <span className={styles.name} data-testid="tenant-name">
        {tenant.tenantName}
      </span>
    </Link>
  );
}
