import { Result } from 'antd';
import { t } from '../locales/zh-CN';
import { LinkButton } from './LinkButton';

export default function NotFoundPage() {
  return (
    <Result
      status="404"
      title="404"
      subTitle={t.notFound.text}
      extra={
        <LinkButton to="/" type="primary">
          {t.common.backHome}
        </LinkButton>
      }
    />
  );
}
