import type { UserImage } from '@gpu/shared/user-images';
import { Empty, Radio, Skeleton } from 'antd';
import { t } from '../../../locales/zh-CN';
import { formatGb, useUserImages } from '../api/user-images';
import { ImageStatus } from './ImageStatus';

const s = t.userImages;

export interface MyImagePickerProps {
  /** The machine's host: an image kept only on another host is shown but cannot be picked. */
  hostName: string;
  value: UserImage | null;
  onChange: (image: UserImage) => void;
}

/** Why an image cannot be picked for this machine, or null. */
const whyNot = (i: UserImage, hostName: string) => {
  if (i.status !== 'AVAILABLE') return s.pickNotReady;
  if (i.hostId !== null && i.hostName !== hostName) return s.pickOtherHost(i.hostName);
  return null;
};

/** The subscribe screen's 我的镜像 tab: the user's saved images this machine can run. */
export default function MyImagePicker({ hostName, value, onChange }: MyImagePickerProps) {
  const { data, isPending, isError } = useUserImages();
  if (isPending) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (isError) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={s.loadFailed} />;
  const items = data.items.filter((i) => i.status !== 'DELETING');
  if (items.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={s.empty} />;
  return (
    <Radio.Group
      value={value?.id ?? null}
      onChange={(e) => {
        const picked = items.find((i) => i.id === e.target.value);
        if (picked) onChange(picked);
      }}
      style={{ display: 'grid', gap: 10 }}
      data-testid="my-image-picker"
    >
      {items.map((i) => {
        const reason = whyNot(i, hostName);
        return (
          <Radio key={i.id} value={i.id} disabled={reason !== null} data-testid={`my-image-${i.id}`}>
            <span style={{ display: 'inline-grid', gap: 2 }}>
              <strong>{i.name}</strong>
              <span style={{ color: '#6b7280', fontSize: 12 }}>
                {formatGb(i.sizeBytes)} · {i.sourceInstanceName}
                {i.description ? ` · ${i.description}` : ''}
              </span>
              {reason ? (
                <span style={{ color: '#d46b08', fontSize: 12 }}>{reason}</span>
              ) : i.status !== 'AVAILABLE' ? (
                <ImageStatus image={i} />
              ) : null}
            </span>
          </Radio>
        );
      })}
    </Radio.Group>
  );
}
