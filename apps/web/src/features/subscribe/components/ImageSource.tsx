import type { UserImage } from '@gpu/shared/user-images';
import { Segmented, Skeleton } from 'antd';
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
    // minmax(0, 1fr): the picker's long image names shrink to the column instead of widening the
    // page on a phone.
    <div
      style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 12 }}
      data-testid="image-source"
    >
      <Segmented<ImageTab>
        style={{ justifySelf: 'start' }}
        value={tab}
        onChange={onTab}
        options={[
          { value: 'public', label: s.tabPublic },
          { value: 'mine', label: <span data-testid="image-tab-mine">{s.tabMine}</span> },
        ]}
      />
      {tab === 'public' ? (
        children
      ) : (
        <Suspense fallback={<Skeleton active paragraph={{ rows: 2 }} />}>
          <MyImagePicker hostName={hostName} value={mine} onChange={onMine} />
        </Suspense>
      )}
    </div>
  );
}
