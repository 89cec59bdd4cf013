import { Alert, Button } from 'antd';
import { t } from '../../../locales/zh-CN';

export const LoadError = ({ onRetry }: { onRetry: () => void }) => (
  <Alert
    type="error"
    showIcon
    title={t.adminOps.loadFailed}
    action={
      <Button size="small" onClick={onRetry}>
        {t.adminOps.reload}
      </Button>
    }
  />
);
