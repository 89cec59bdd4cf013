import {
  ClockCircleOutlined,
  EnvironmentOutlined,
  GlobalOutlined,
  ThunderboltFilled,
} from '@ant-design/icons';
import type { BillingType } from '@gpu/shared/constants';
import type { MarketItem } from '@gpu/shared/market';
import { discountZhe } from '@gpu/shared/price-display';
import { Button } from 'antd';
import { useState } from 'react';
import { Countdown } from '../../../components/Countdown';
import { Price } from '../../../components/Price';
import { t } from '../../../locales/zh-CN';
import { cardPrices, dataDiskGb, systemDiskGb } from '../market-item';
import styles from './GpuCard.module.css';

const m = t.market;
const MAX_SEGMENTS = 16;

function IdleMeter({ idle, total }: { idle: number; total: number }) {
  const segments = Math.min(total, MAX_SEGMENTS);
  const lit = total > 0 ? Math.round((idle / total) * segments) : 0;
  return (
    <span className={styles.meter} aria-hidden="true">
      {Array.from({ length: segments }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed positions of a meter
        <span key={i} className={i < lit ? styles.segmentOn : styles.segment} />
      ))}
    </span>
  );
}

export interface GpuCardProps {
  item: MarketItem;
  billingType: BillingType;
  /** The item's region is overseas (from the answer's regions). */
  overseas: boolean;
  onSubscribe: (item: MarketItem) => void;
  /** The discount's end passed while shown (SPEC.md §4: the list reloads). */
  onDiscountExpired: () => void;
}

/** One machine of the market (SPEC.md §2, §3). */
export function GpuCard({ item, billingType, overseas, onSubscribe, onDiscountExpired }: GpuCardProps) {
  // The end time whose countdown ran out here; a new discount after a reload is live again.
  const [ended, setEnded] = useState<string | false>(false);
  const discountLive = item.hasDiscount && ended !== item.discountEndTime;
  const prices = cardPrices(item, billingType, discountLive);
  const soldOut = item.gpuIdleNum <= 0;
  const pkgUnit = billingType === 'hourly' ? null : m.packageUnit[billingType];

  const expire = () => {
    setEnded(item.discountEndTime ?? '');
    onDiscountExpired();
  };

  return (
    <article className={styles.card} data-testid="gpu-card" aria-label={`${item.gpuName} ${item.hostName}`}>
      <header className={styles.head}>
        <span className={styles.region} data-testid="gpu-card-region">
          {overseas ? <GlobalOutlined /> : <EnvironmentOutlined />}
          {item.regionName}
        </span>
        {discountLive ? (
          <span className={styles.zhe} data-testid="gpu-card-zhe">
            {discountZhe(item.discountRate)}
          </span>
        ) : null}
      </header>

      <div className={styles.title}>
        <h3 className={styles.gpuName} data-testid="gpu-card-name">
          {item.gpuName}
        </h3>
        <div className={styles.subtitle}>
          <span className={styles.memory}>{m.memory(item.memoryGb)}</span>
          <span className={styles.brand}>{item.gpuBrand}</span>
          {item.cudaVersion ? <span className={styles.brand}>CUDA {item.cudaVersion}</span> : null}
        </div>
        <div className={styles.host} data-testid="gpu-card-host" title={item.hostName}>
          {item.hostName}
        </div>
      </div>

      <dl className={styles.specs}>
        <div className={styles.specWide}>
          <dt>{m.cpu}</dt>
          <dd>
            <span className={styles.cpuInfo} title={item.cpuInfo}>
              {item.cpuInfo || '—'}
            </span>
            <span className={styles.cores}>{m.cpuPerGpu(item.cpuPerGpu)}</span>
          </dd>
        </div>
        <div>
          <dt>{m.systemDisk}</dt>
          <dd>{m.gb(systemDiskGb(item))}</dd>
        </div>
        <div>
          <dt>{m.dataDisk}</dt>
          <dd>{m.gb(dataDiskGb(item))}</dd>
        </div>
        <div className={styles.specWide}>
          <dt>{m.idle}</dt>
          <dd className={styles.idle}>
            <IdleMeter idle={item.gpuIdleNum} total={item.gpuNum} />
            <span className={soldOut ? styles.idleNone : styles.idleCount} data-testid="gpu-card-idle">
              {m.idleValue(item.gpuIdleNum, item.gpuNum)}
            </span>
          </dd>
        </div>
      </dl>

      {discountLive ? (
        <div className={styles.discount} data-testid="gpu-card-discount">
          <div className={styles.discountText}>
            <ThunderboltFilled className={styles.discountIcon} />
            <span>{item.discountDescription || discountZhe(item.discountRate)}</span>
          </div>
          {item.discountEndTime ? (
            <div className={styles.discountTimer}>
              <ClockCircleOutlined />
              {m.discountEndsIn}
              <Countdown endTime={item.discountEndTime} onExpire={expire} className={styles.countdown} />
            </div>
          ) : null}
        </div>
      ) : null}

      <div className={styles.priceBlock} data-testid="gpu-card-price">
        {prices.packagePrice !== null && pkgUnit ? (
          <>
            <div className={styles.priceMain}>
              <Price value={prices.packagePrice} unit={pkgUnit} size="lg" />
              {prices.originalPackagePrice !== null ? (
                <Price value={prices.originalPackagePrice} size="sm" strike />
              ) : null}
              <span className={styles.perGpu}>{m.packagePerGpu}</span>
            </div>
            <div className={styles.priceSub}>
              {m.hourlyRef}{' '}
              <Price value={prices.perHour} unit={m.perHour} size="sm" className={styles.subPrice} /> ·{' '}
              <Price value={prices.perMinute} unit={m.perMinute} size="sm" className={styles.subPrice} />
            </div>
          </>
        ) : (
          <>
            <div className={styles.priceMain}>
              <Price value={prices.perHour} unit={m.perHour} size="lg" testId="gpu-card-per-hour" />
              {prices.originalPerHour !== null ? (
                <Price value={prices.originalPerHour} size="sm" strike />
              ) : null}
            </div>
            <div className={styles.priceSub}>
              {m.perMinuteApprox}{' '}
              <Price
                value={prices.perMinute}
                unit={m.perMinute}
                size="sm"
                className={styles.subPrice}
                testId="gpu-card-per-minute"
              />
            </div>
          </>
        )}
      </div>

      <Button
        type="primary"
        size="large"
        block
        disabled={soldOut}
        className={styles.subscribe}
        aria-label={m.subscribeAria(item.gpuName, item.hostName)}
        data-testid="gpu-card-subscribe"
        onClick={() => onSubscribe(item)}
      >
        {soldOut ? m.soldOut : m.subscribe}
      </Button>
    </article>
  );
}
