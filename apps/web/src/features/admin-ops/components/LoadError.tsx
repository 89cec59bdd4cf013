import { Alert, Button } from 'antd';
import { ta } from '../../../locales/zh-CN.admin';

export const LoadError = ({ onRetry }: { onRetry: () => void }) => (
  <Alert
    type="error"
    showIcon
    title={ta.adminOps.loadFailed}
    action={
      <Button size="small" onClick={onRetry}>
        {ta.adminOps.reload}
      </Button>
    }
  />
);
