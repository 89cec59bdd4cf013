import { Card } from 'antd';
import { t } from '../../../locales/zh-CN';
import { DiscountTable } from '../components/DiscountTable';
import styles from './AdminPage.module.css';

const d = t.adminDiscount;

/** /admin/discount-config: the discount rules (SPEC.md §7 admin Discounts). */
export default function DiscountConfigPage() {
  return (
    <Card
      className={styles.card}
      title={
        <span className={styles.heading}>
          <span className={styles.title}>{d.title}</span>
          <span className={styles.subtitle}>{d.subtitle}</span>
        </span>
      }
    >
      <DiscountTable />
    </Card>
  );
}
