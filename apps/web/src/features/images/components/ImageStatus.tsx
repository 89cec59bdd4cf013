import type { UserImage } from '@gpu/shared/user-images';
import { Progress, Tag, Tooltip } from 'antd';
import { t } from '../../../locales/zh-CN';

const s = t.userImages;
const COLORS: Record<string, string> = {
  SAVING: 'processing',
  AVAILABLE: 'success',
  FAILED: 'error',
  DELETING: 'default',
};

/** 保存中 with its progress, 可用, or 失败 with the reason on hover (and below on phones). */
export function ImageStatus({ image }: { image: UserImage }) {
  const tag = (
    <Tag color={COLORS[image.status]} data-testid={`image-status-${image.id}`}>
      {s.statusNames[image.status] ?? image.status}
    </Tag>
  );
  if (image.status === 'SAVING')
    return (
      <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8, minWidth: 160 }}>
        {tag}
        <Progress percent={image.progress} size="small" style={{ width: 90, margin: 0 }} />
      </span>
    );
  if (image.status === 'FAILED' && image.error) return <Tooltip title={image.error}>{tag}</Tooltip>;
  return tag;
}
