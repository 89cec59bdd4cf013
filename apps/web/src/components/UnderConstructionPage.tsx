import { ToolOutlined } from '@ant-design/icons';
import { Result } from 'antd';
import { useRouteHandle } from '../app/route-handle';
import { t } from '../locales/zh-CN';
import { LinkButton } from './LinkButton';
import styles from './UnderConstructionPage.module.css';

/** The panel a page shows until the issue that builds it lands; it names the page. */
export default function UnderConstructionPage() {
  const title = useRouteHandle()?.title ?? '';
  return (
    <div className={styles.wrap} data-testid="under-construction">
      <Result
        icon={<ToolOutlined className={styles.icon} />}
        title={t.underConstruction.title(title)}
        subTitle={t.underConstruction.text}
        extra={
          <LinkButton to="/" type="primary">
            {t.common.backHome}
          </LinkButton>
        }
      />
    </div>
  );
}
