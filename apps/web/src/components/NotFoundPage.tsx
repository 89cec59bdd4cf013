import { Result } from 'antd';
import { t } from '../locales/zh-CN';
import { LinkButton } from './LinkButton';
import styles from './NotFoundPage.module.css';

export default function NotFoundPage() {
  return (
    <Result
      icon={
        <div className={styles.code} data-testid="not-found-code">
          404
        </div>
      }
      title={t.notFound.title}
      subTitle={t.notFound.text}
      extra={
        <LinkButton to="/" type="primary" data-testid="not-found-home">
          {t.common.backHome}
        </LinkButton>
      }
    />
  );
}
