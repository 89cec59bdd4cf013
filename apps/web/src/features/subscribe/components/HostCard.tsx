import {
  ClockCircleOutlined,
  EnvironmentOutlined,
  GlobalOutlined,
  ThunderboltFilled,
} from '@ant-design/icons';
import type { MarketItem } from '@gpu/shared/market';
import { isOverseasSku } from '@gpu/shared/market';
import { discountPercentOff, discountZhe, displayPrices } from '@gpu/shared/price-display';
import { Countdown } from '../../../components/Countdown';
import { Price } from '../../../components/Price';
import { t } from '../../../locales/zh-CN';
import { dataDiskGb, systemDiskGb } from '../../market';
import styles from './HostCard.module.css';

const s = t.subscribe;

export interface HostCardProps {
  item: MarketItem;
  /** False once the discount's end has passed on this screen. */
  discountLive: boolean;
  onDiscountEnd: () => void;
}

/** The chosen machine (SPEC.md §2/§3): specs, idle GPUs, price per hour and minute, discount. */
export function HostCard({ item, discountLive, onDiscountEnd }: HostCardProps) {
  const discounted = item.hasDiscount && discountLive;
  const paid = displayPrices(discounted ? item.discountPrice : item.originalPrice);
  const original = displayPrices(item.originalPrice);
  return (
    <article className={styles.card} data-testid="host-card" aria-label={`${item.gpuName} ${item.hostName}`}>
      <div className={styles.identity}>
        <div className={styles.chip} aria-hidden="true">
          <span className={styles.chipBrand}>{item.gpuBrand}</span>
          <span className={styles.chipMem}>{item.memoryGb}G</span>
        </div>
        <div className={styles.names}>
          <div className={styles.titleRow}>
            <h2 className={styles.gpuName} data-testid="host-card-gpu">
              {item.gpuName}
            </h2>
            <span className={styles.memory}>{s.memory(item.memoryGb)}</span>
          </div>
          <div className={styles.meta}>
            <span className={styles.region}>
              {isOverseasSku(item.skuGpuId) ? <GlobalOutlined /> : <EnvironmentOutlined />}
              {item.regionName}
            </span>
            <span className={styles.host} title={item.hostName} data-testid="host-card-host">
              {item.hostName}
            </span>
          </div>
        </div>
        <div className={styles.priceBox} data-testid="host-card-price">
          <div className={styles.priceMain}>
            <Price value={paid.perHour} unit={s.unit.hourly} size="lg" />
            {discounted ? <Price value={original.perHour} size="sm" strike /> : null}
          </div>
          <div className={styles.priceSub}>
            {s.perGpu} · <Price value={paid.perMinute} unit={s.perMinute} size="sm" />
          </div>
        </div>
      </div>

      <dl className={styles.specs}>
        <div className={styles.specWide}>
          <dt>{s.cpu}</dt>
          <dd>
            <span className={styles.ellipsis} title={item.cpuInfo}>
              {item.cpuInfo || '—'}
            </span>
            <span className={styles.cores}>{s.cpuPerGpu(item.cpuPerGpu)}</span>
          </dd>
        </div>
        <div>
          <dt>{s.systemDisk}</dt>
          <dd>{s.gb(systemDiskGb(item))}</dd>
        </div>
        <div>
          <dt>{s.dataDisk}</dt>
          <dd>{s.gb(dataDiskGb(item))}</dd>
        </div>
        <div>
          <dt>{s.idle}</dt>
          <dd className={item.gpuIdleNum > 0 ? styles.idle : styles.idleNone} data-testid="host-card-idle">
            {s.idleValue(item.gpuIdleNum, item.gpuNum)}
          </dd>
        </div>
        {item.nvidiaDriver ? (
          <div>
            <dt>{s.driver}</dt>
            <dd>{item.nvidiaDriver}</dd>
          </div>
        ) : null}
        {item.cudaVersion ? (
          <div>
            <dt>{s.cuda}</dt>
            <dd>{item.cudaVersion}</dd>
          </div>
        ) : null}
      </dl>

      {discounted ? (
        <div className={styles.discount} data-testid="host-card-discount">
          <span className={styles.zhe}>{discountZhe(item.discountRate)}</span>
          <span className={styles.off}>{s.discountOff(discountPercentOff(item.discountRate))}</span>
          <ThunderboltFilled className={styles.discountIcon} />
          <span className={styles.discountText} title={item.discountDescription}>
            {item.discountDescription}
          </span>
          {item.discountEndTime ? (
            <span className={styles.timer}>
              <ClockCircleOutlined />
              {s.discountEndsIn}
              <Countdown
                endTime={item.discountEndTime}
                onExpire={onDiscountEnd}
                className={styles.countdown}
              />
            </span>
          ) : null}
        </div>
      ) : null}
    </article>
  );
}
