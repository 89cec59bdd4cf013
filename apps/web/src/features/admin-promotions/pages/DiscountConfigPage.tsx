import { Card } from 'antd';
import { PageHeader } from '../../../components/PageHeader';
import { ta } from '../../../locales/zh-CN.admin';
import { DiscountTable } from '../components/DiscountTable';
import styles from './AdminPage.module.css';

const d = ta.adminDiscount;

/** /admin/discount-config: the discount rules (SPEC.md §7 admin Discounts). */
export default function DiscountConfigPage() {
  return (
    <>
      <PageHeader title={d.title} subtitle={d.subtitle} />
      <Card className={styles.card}>
        <DiscountTable />
      </Card>
    </>
  );
}
