/**
 * The texts of 监控 (the charts and the row sparkline), apart from zh-CN.ts so they load with the instance list's lazy chunks and
 * never with the entry (which every visitor downloads).
 */
export const tmon = {
  action: '监控',
  title: (name: string) => `监控 · ${name}`,
  range: '时间范围',
  ranges: { '1h': '1小时', '24h': '24小时', '7d': '7天', '30d': '30天' },
  gpuUtil: 'GPU 利用率',
  gpuMem: 'GPU 显存',
  cpu: 'CPU 使用率',
  memory: '内存',
  disk: '磁盘',
  used: '已用',
  limit: '上限',
  gpu: (index: number) => `GPU ${index}`,
  empty: '实例未运行或暂无数据',
  hostEmpty: '暂无监控数据',
  loadFailed: '监控数据加载失败',
  retry: '重试',
  refresh: '刷新',
  updatedAt: (time: string) => `更新于 ${time}`,
  live: '每 15 秒自动刷新',
  step: (seconds: number) => (seconds >= 60 ? `每点 ${seconds / 60} 分钟均值` : `每 ${seconds} 秒一个点`),
  chartLoading: '图表加载中…',
  percent: (n: number) => `${n}%`,
  gb: (text: string) => `${text} GB`,
  sparkline: (latest: number) => `近 1 小时 GPU 利用率，最新 ${latest}%`,
  noSamples: '暂无数据',
};
