import { Skeleton } from 'antd';
import styles from './GpuCard.module.css';

/** A card-shaped placeholder while the first page loads. */
export function GpuCardSkeleton() {
  return (
    <div className={styles.card} aria-hidden="true" data-testid="gpu-card-skeleton">
      <Skeleton.Button active size="small" style={{ width: 90 }} />
      <Skeleton
        active
        title={{ width: '60%' }}
        paragraph={{ rows: 4, width: ['40%', '100%', '80%', '90%'] }}
      />
      <Skeleton.Button active block size="large" />
    </div>
  );
}
