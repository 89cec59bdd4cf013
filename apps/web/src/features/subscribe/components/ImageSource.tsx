import type { UserImage } from '@gpu/shared/user-images';
import { Skeleton, Tabs } from 'antd';
import { type ReactNode, Suspense } from 'react';
import { t } from '../../../locales/zh-CN';
import { MyImagePicker } from '../../images';

const s = t.userImages;
export type ImageTab = 'public' | 'mine';

/**
 * The image picker's two sources: the catalogue's images (the cascader, `children`) and the
 * user's saved ones (我的镜像), of which only those this machine's host can run are offered.
 */
export function ImageSource({
  tab,
  onTab,
  hostName,
  mine,
  onMine,
  children,
}: {
  tab: ImageTab;
  onTab: (tab: ImageTab) => void;
  hostName: string;
  mine: UserImage | null;
  onMine: (image: UserImage) => void;
  children: ReactNode;
}) {
  return (
    <Tabs
      activeKey={tab}
      onChange={(key) => onTab(key as ImageTab)}
      size="small"
      data-testid="image-source"
      items={[
        { key: 'public', label: s.tabPublic, children },
        {
          key: 'mine',
          label: <span data-testid="image-tab-mine">{s.tabMine}</span>,
          children: (
            <Suspense fallback={<Skeleton active paragraph={{ rows: 2 }} />}>
              <MyImagePicker hostName={hostName} value={mine} onChange={onMine} />
            </Suspense>
          ),
        },
      ]}
    />
  );
}
