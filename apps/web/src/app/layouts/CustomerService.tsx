import { CustomerServiceOutlined, LeftOutlined, RightOutlined, WechatOutlined } from '@ant-design/icons';
import { type ReactNode, useState } from 'react';
import { FallbackImage } from '../../components/FallbackImage';
import { useTenant } from '../../lib/tenant-context';
import { t } from '../../locales/zh-CN';
import styles from './CustomerService.module.css';

const cs = t.customerService;

function Entry({
  icon,
  label,
  title,
  hint,
  qr,
}: {
  icon: ReactNode;
  label: string;
  title: string;
  hint: string;
  qr: string;
}) {
  // Hover (or focus, for keyboards and taps) shows the QR popup.
  return (
    <div className={styles.entry}>
      <button type="button" className={styles.button} aria-label={title}>
        {icon}
        <span className={styles.label}>{label}</span>
      </button>
      <div className={styles.popup} role="tooltip">
        <FallbackImage src={qr} alt={title} width={140} height={140} />
        <strong>{title}</strong>
        <span>{hint}</span>
      </div>
    </div>
  );
}

/**
 * Floating customer-service widget: official account and service contact QR codes. On phones it
 * is a slim tab on the right edge (it covered page content there) that opens the two entries.
 */
export function CustomerService() {
  const { footer } = useTenant();
  const [open, setOpen] = useState(false);
  return (
    <aside className={`${styles.widget} ${open ? styles.open : ''}`} data-testid="customer-service">
      <button
        type="button"
        className={styles.tab}
        aria-expanded={open}
        aria-label={open ? cs.collapse : cs.expand}
        onClick={() => setOpen((v) => !v)}
        data-testid="customer-service-tab"
      >
        {open ? <RightOutlined /> : <LeftOutlined />}
        {open ? null : <span className={styles.tabLabel}>{cs.service}</span>}
      </button>
      <Entry
        icon={<WechatOutlined />}
        label={cs.official}
        title={cs.officialTitle}
        hint={cs.officialHint}
        qr={footer.wechatOfficialQr}
      />
      <Entry
        icon={<CustomerServiceOutlined />}
        label={cs.service}
        title={cs.serviceTitle}
        hint={cs.serviceHint}
        qr={footer.wechatServiceQr}
      />
    </aside>
  );
}
