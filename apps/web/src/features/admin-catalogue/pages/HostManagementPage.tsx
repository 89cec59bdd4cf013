import { Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader';
import { ta } from '../../../locales/zh-CN.admin';
import { HostsTab } from '../components/HostsTab';
import { ImagesTab } from '../components/ImagesTab';
import { RegionsTab } from '../components/RegionsTab';
import { SkusTab } from '../components/SkusTab';

const c = ta.adminCatalogue;

/** /admin/host-management: hosts and GPUs, with the catalogue they sell from (regions, images, SKUs). */
export default function HostManagementPage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') ?? 'hosts';
  return (
    <>
      <PageHeader title={c.hosts.title} subtitle={c.hosts.subtitle} />
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams({ tab: key }, { replace: true })}
        destroyOnHidden
        items={[
          { key: 'hosts', label: c.tabs.hosts, children: <HostsTab /> },
          { key: 'skus', label: c.tabs.skus, children: <SkusTab /> },
          { key: 'regions', label: c.tabs.regions, children: <RegionsTab /> },
          { key: 'images', label: c.tabs.images, children: <ImagesTab /> },
        ]}
      />
    </>
  );
}
