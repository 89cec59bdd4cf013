import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import { TenantBrand } from '../../components/TenantBrand';
import { PATHS } from '../../lib/routing/paths';
import { useTenant } from '../../lib/tenant-context';
import { t } from '../../locales/zh-CN';
import styles from './SiteFooter.module.css';

const f = t.footer;

/**
 * The official-account QR; the slot is left out when the tenant has none or it fails to load
 * (a grey broken-image box helps nobody in a footer).
 */
function FooterQr({ src }: { src: string }) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (!src || failedSrc === src) return null;
  return (
    <div className={styles.qr} data-testid="footer-qr">
      <img src={src} alt={f.officialQr} width={96} height={96} onError={() => setFailedSrc(src)} />
      <span>{f.officialQr}</span>
    </div>
  );
}
const COLUMNS = [
  {
    title: f.products,
    links: [
      { to: PATHS.market, label: f.productMarket },
      { to: PATHS.cloud, label: f.productCloud },
      { to: PATHS.contact, label: f.productBareMetal },
      { to: PATHS.aiNavigation, label: f.productAiNavigation },
    ],
  },
  {
    title: f.help,
    links: [
      { to: PATHS.console.root, label: f.helpConsole },
      { to: PATHS.recharge, label: f.helpRecharge },
      { to: PATHS.console.bills, label: f.helpBills },
      { to: PATHS.console.vouchers, label: f.helpVouchers },
    ],
  },
];

export const BEIAN_URL = 'https://beian.miit.gov.cn/';

/** SPEC.md §2 footer: products, help, support contact, official QR and the filing number. */
export function SiteFooter() {
  const { tenantName, contact, footer } = useTenant();
  const contactParts = f.contactParts(contact.email, contact.phone);
  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <div className={styles.about}>
          <TenantBrand inverse />
          <p className={styles.tagline}>{f.tagline}</p>
        </div>
        {COLUMNS.map((column) => (
          <div key={column.title} className={styles.column}>
            <h4>{column.title}</h4>
            <ul>
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to}>{link.label}</Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
        <div className={`${styles.column} ${styles.support}`}>
          <h4>{f.support}</h4>
          <p className={styles.contact} data-testid="footer-contact">
            {contactParts.length === 0
              ? f.noContact
              : contactParts.map((part, i) => (
                  <Fragment key={part}>
                    {i > 0 ? f.contactSeparator : null}
                    <span className={styles.token} title={part}>
                      {part}
                    </span>
                  </Fragment>
                ))}
          </p>
        </div>
        <FooterQr src={footer.wechatOfficialQr} />
      </div>
      <div className={styles.bottom}>
        <span>{f.copyright(new Date().getFullYear(), tenantName)}</span>
        {footer.beianNumber && (
          <a href={BEIAN_URL} target="_blank" rel="noopener noreferrer" data-testid="beian">
            {footer.beianNumber}
          </a>
        )}
      </div>
    </footer>
  );
}
