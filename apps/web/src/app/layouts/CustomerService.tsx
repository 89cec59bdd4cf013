import { CustomerServiceOutlined, WechatOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { FallbackImage } from '../../components/FallbackImage';
import { useTenant } from '../../features/tenant/tenant-context';
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

/** Floating customer-service widget: official account and service contact QR codes. */
export function CustomerService() {
  const { footer } = useTenant();
  return (
    <aside className={styles.widget} data-testid="customer-service">
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
