import { tmon } from '../../../locales/zh-CN.monitoring';
import styles from './GpuSparkline.module.css';

const m = tmon;
const W = 64;
const H = 20;

/** One decimal is plenty for a 64-pixel drawing and keeps the path short. */
const px = (v: number) => Math.round(v * 10) / 10;

/**
 * The last hour of an instance's busiest GPU (one point a minute, 0–100 %) as a tiny inline SVG,
 * with the latest figure beside it: no chart library in the instance list. The scale is fixed at
 * 0–100 so an idle GPU reads flat at the bottom, never as a busy-looking wiggle.
 */
export function GpuSparkline({ points }: { points: number[] | undefined }) {
  if (!points || points.length === 0)
    return (
      <span className={styles.muted} data-testid="gpu-sparkline-none">
        {m.noSamples}
      </span>
    );
  const latest = Math.round(points[points.length - 1] ?? 0);
  const y = (v: number) => px(H - 1 - (Math.min(100, Math.max(0, v)) / 100) * (H - 2));
  const xs = points.length === 1 ? [0, W] : points.map((_, i) => px((i / (points.length - 1)) * W));
  const ys = points.length === 1 ? [y(points[0] ?? 0), y(points[0] ?? 0)] : points.map(y);
  const line = xs.map((x, i) => `${x},${ys[i]}`).join(' ');
  return (
    <span
      className={styles.spark}
      role="img"
      aria-label={m.sparkline(latest)}
      data-testid="gpu-sparkline"
      data-latest={latest}
    >
      <svg className={styles.sparkSvg} width={W} height={H} viewBox={`0 0 ${W} ${H}`} aria-hidden="true">
        <polygon className={styles.sparkArea} points={`0,${H} ${line} ${W},${H}`} />
        <polyline className={styles.sparkLine} points={line} />
      </svg>
      <span aria-hidden="true">{m.percent(latest)}</span>
    </span>
  );
}
