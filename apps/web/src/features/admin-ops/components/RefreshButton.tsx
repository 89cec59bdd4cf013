import { ReloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { ta } from '../../../locales/zh-CN.admin';

/** The page header's refresh: refetches, spinning only on a refetch (not the first load). */
export function RefreshButton({
  onClick,
  query,
}: {
  onClick: () => void;
  query: { isFetching: boolean; isPending: boolean };
}) {
  return (
    <Button icon={<ReloadOutlined />} onClick={onClick} loading={query.isFetching && !query.isPending}>
      {ta.adminOps.refresh}
    </Button>
  );
}
