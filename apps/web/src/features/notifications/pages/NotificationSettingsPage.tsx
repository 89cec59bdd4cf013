import { Card, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader';
import { t } from '../../../locales/zh-CN';
import { tn } from '../../../locales/zh-CN.notifications';
import { ChannelsPanel } from '../components/ChannelsPanel';
import { WebhooksPanel } from '../components/WebhooksPanel';

const s = tn.settings;
const TABS = ['channels', 'webhooks'] as const;
type Tab = (typeof TABS)[number];

/** /console/notification-settings (issue 31): per-event channels and the webhooks; ?tab= picks one. */
export default function NotificationSettingsPage() {
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'webhooks' ? 'webhooks' : 'channels';
  return (
    <>
      <PageHeader title={t.routes.consoleNotificationSettings} subtitle={s.settingsSubtitle} />
      <Card>
        <Tabs
          activeKey={tab}
          onChange={(key) => setParams(key === 'channels' ? {} : { tab: key }, { replace: true })}
          items={[
            { key: 'channels', label: s.tabChannels, children: <ChannelsPanel /> },
            { key: 'webhooks', label: s.tabWebhooks, children: <WebhooksPanel /> },
          ]}
          destroyOnHidden
        />
      </Card>
    </>
  );
}
