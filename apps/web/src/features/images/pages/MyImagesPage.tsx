import { gbOf } from '@gpu/shared/sizes';
import { formatTime } from '@gpu/shared/time';
import type { UserImage } from '@gpu/shared/user-images';
import { Alert, Card, Empty, Grid, Skeleton, Table, type TableProps } from 'antd';
import { PageHeader } from '../../../components/PageHeader';
import { t } from '../../../locales/zh-CN';
import { formatGb, useUserImages } from '../api/user-images';
import { DeleteImageButton } from '../components/DeleteImageButton';
import { ImageStatus } from '../components/ImageStatus';
import styles from './MyImagesPage.module.css';

const s = t.userImages;

const Name = ({ image }: { image: UserImage }) => (
  <span className={styles.name}>
    <strong>{image.name}</strong>
    {image.description ? <span className={styles.description}>{image.description}</span> : null}
  </span>
);

const COLUMNS: TableProps<UserImage>['columns'] = [
  { title: s.name, width: 220, render: (_: unknown, i: UserImage) => <Name image={i} /> },
  { title: s.size, width: 100, render: (_: unknown, i: UserImage) => formatGb(i.sizeBytes) },
  { title: s.status, width: 200, render: (_: unknown, i: UserImage) => <ImageStatus image={i} /> },
  { title: s.source, width: 160, ellipsis: true, render: (_: unknown, i: UserImage) => i.sourceInstanceName },
  {
    title: s.host,
    width: 140,
    render: (_: unknown, i: UserImage) => (i.hostId === null ? s.anyHost : i.hostName),
  },
  { title: s.createdAt, dataIndex: 'createdAt', width: 170, render: (v: string) => formatTime(v) },
  { title: s.actions, width: 100, render: (_: unknown, i: UserImage) => <DeleteImageButton image={i} /> },
];

/** 我的镜像: the user's saved images with status and progress (polled while one saves), and delete. */
export default function MyImagesPage() {
  const { data, isPending, isError } = useUserImages();
  const mobile = Grid.useBreakpoint().md === false;
  const items = data?.items ?? [];
  const usage = data
    ? s.quota(data.usedCount, data.quota.maxCount, gbOf(data.usedBytes), data.quota.maxTotalGb)
    : null;
  let body: React.ReactNode;
  if (isError) body = <Alert type="error" showIcon title={s.loadFailed} />;
  else if (mobile)
    body = isPending ? (
      <Skeleton active paragraph={{ rows: 3 }} />
    ) : items.length === 0 ? (
      <Empty description={s.empty} />
    ) : (
      <ul className={styles.list}>
        {items.map((i) => (
          <li key={i.id} data-testid={`image-row-${i.id}`}>
            <div className={styles.row}>
              <Name image={i} />
              <DeleteImageButton image={i} />
            </div>
            <div className={styles.row}>
              <ImageStatus image={i} />
              <span className={styles.meta}>{formatGb(i.sizeBytes)}</span>
            </div>
            {i.status === 'FAILED' && i.error ? <span className={styles.error}>{i.error}</span> : null}
            <span className={styles.meta}>
              {s.source}：{i.sourceInstanceName} · {i.hostId === null ? s.anyHost : i.hostName} ·{' '}
              {formatTime(i.createdAt)}
            </span>
          </li>
        ))}
      </ul>
    );
  else
    body = (
      <Table<UserImage>
        rowKey="id"
        size="middle"
        columns={COLUMNS}
        dataSource={items}
        loading={isPending}
        pagination={false}
        locale={{ emptyText: <Empty description={s.empty} /> }}
        onRow={(i) => ({ 'data-testid': `image-row-${i.id}` }) as object}
        scroll={{ x: 'max-content' }}
      />
    );
  return (
    <>
      <PageHeader title={s.title} subtitle={usage} />
      <Card className={styles.card} data-testid="my-images">
        <p className={styles.hint}>{s.hint}</p>
        {body}
      </Card>
    </>
  );
}
