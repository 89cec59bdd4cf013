import { DEFAULT_TENANT_CONFIG } from '@gpu/shared';
import type { TenantSettings } from '../tenants/tenants.tables.ts';

/** What the demo seeds; one table of facts so the numbers are easy to read and change. */
export const DEMO_REGIONS = [
  { name: '安徽A区', code: 'anhui-a', sortOrder: 10, overseas: false },
  { name: '北京A区', code: 'beijing-a', sortOrder: 20, overseas: false },
  { name: '广东B区', code: 'guangdong-b', sortOrder: 30, overseas: false },
  { name: '内蒙古A区', code: 'neimenggu-a', sortOrder: 40, overseas: false },
  { name: '海外区（美国）', code: 'overseas-us', sortOrder: 900, overseas: true },
] as const;

export type RegionCode = (typeof DEMO_REGIONS)[number]['code'];

interface DemoHost {
  name: string;
  region: RegionCode;
  gpuModel: string;
  gpuBrand: string;
  gpuMemoryGb: number;
  gpuCount: number;
  /** How many GPUs an offline customer holds, so the market shows some busy. */
  busy: number;
  cpuModel: string;
  cpuCores: number;
  memoryGb: number;
  cpuPerGpu: number;
  hourlyYuan: number;
  nvidiaDriver: string;
  cudaVersion: string;
}

const XEON = 'Intel Xeon Platinum 8352V';
const EPYC = 'AMD EPYC 7763 64-Core';

export const DEMO_HOSTS: DemoHost[] = [
  {
    name: 'ah-a-4090-01',
    region: 'anhui-a',
    gpuModel: 'RTX 4090',
    gpuBrand: 'NVIDIA',
    gpuMemoryGb: 24,
    gpuCount: 8,
    busy: 3,
    cpuModel: XEON,
    cpuCores: 128,
    memoryGb: 512,
    cpuPerGpu: 16,
    hourlyYuan: 1.98,
    nvidiaDriver: '550.127.05',
    cudaVersion: '12.4',
  },
  {
    name: 'ah-a-3090-01',
    region: 'anhui-a',
    gpuModel: 'RTX 3090',
    gpuBrand: 'NVIDIA',
    gpuMemoryGb: 24,
    gpuCount: 8,
    busy: 8,
    cpuModel: XEON,
    cpuCores: 96,
    memoryGb: 384,
    cpuPerGpu: 12,
    hourlyYuan: 1.38,
    nvidiaDriver: '535.183.01',
    cudaVersion: '12.2',
  },
  {
    name: 'bj-a-a100-01',
    region: 'beijing-a',
    gpuModel: 'A100 80GB',
    gpuBrand: 'NVIDIA',
    gpuMemoryGb: 80,
    gpuCount: 8,
    busy: 5,
    cpuModel: EPYC,
    cpuCores: 128,
    memoryGb: 1024,
    cpuPerGpu: 16,
    hourlyYuan: 7.58,
    nvidiaDriver: '550.127.05',
    cudaVersion: '12.4',
  },
  {
    name: 'gd-b-h100-01',
    region: 'guangdong-b',
    gpuModel: 'H100 80GB',
    gpuBrand: 'NVIDIA',
    gpuMemoryGb: 80,
    gpuCount: 8,
    busy: 6,
    cpuModel: 'Intel Xeon Platinum 8480+',
    cpuCores: 112,
    memoryGb: 2048,
    cpuPerGpu: 14,
    hourlyYuan: 15.8,
    nvidiaDriver: '560.35.03',
    cudaVersion: '12.6',
  },
  {
    name: 'nm-a-l40s-01',
    region: 'neimenggu-a',
    gpuModel: 'L40S',
    gpuBrand: 'NVIDIA',
    gpuMemoryGb: 48,
    gpuCount: 8,
    busy: 0,
    cpuModel: EPYC,
    cpuCores: 96,
    memoryGb: 768,
    cpuPerGpu: 12,
    hourlyYuan: 3.98,
    nvidiaDriver: '550.127.05',
    cudaVersion: '12.4',
  },
  {
    name: 'nm-a-910b-01',
    region: 'neimenggu-a',
    gpuModel: 'Ascend 910B',
    gpuBrand: 'HUAWEI',
    gpuMemoryGb: 64,
    gpuCount: 8,
    busy: 2,
    cpuModel: 'Kunpeng 920 7265',
    cpuCores: 192,
    memoryGb: 1024,
    cpuPerGpu: 24,
    hourlyYuan: 4.5,
    nvidiaDriver: '',
    cudaVersion: '',
  },
  {
    name: 'us-w-4090-01',
    region: 'overseas-us',
    gpuModel: 'RTX 4090',
    gpuBrand: 'NVIDIA',
    gpuMemoryGb: 24,
    gpuCount: 4,
    busy: 1,
    cpuModel: 'AMD Ryzen Threadripper PRO 5975WX',
    cpuCores: 32,
    memoryGb: 256,
    cpuPerGpu: 8,
    hourlyYuan: 2.68,
    nvidiaDriver: '550.120',
    cudaVersion: '12.4',
  },
];

const img = (
  frameworkType: 'pytorch' | 'tensorflow' | 'base',
  frameworkVersion: string,
  pythonVersion: string,
  accel: { cuda?: string; cann?: string; musa?: string },
  osInfo = 'Ubuntu 22.04',
) => {
  const brand = accel.cann ? 'HUAWEI' : accel.musa ? 'MTHREADS' : 'NVIDIA';
  const accelTag = accel.cuda ? `cuda${accel.cuda}` : accel.cann ? `cann${accel.cann}` : `musa${accel.musa}`;
  const name = frameworkType === 'base' ? 'base' : frameworkType;
  const tag = [frameworkVersion, `py${pythonVersion}`, accelTag].filter(Boolean).join('-');
  return {
    imageName:
      `${frameworkType === 'pytorch' ? 'PyTorch' : frameworkType === 'tensorflow' ? 'TensorFlow' : osInfo} ${frameworkVersion}`.trim(),
    imageUrl: `registry.gpu.local/${name}:${tag}`,
    frameworkType,
    frameworkVersion,
    pythonVersion,
    cudaVersion: accel.cuda ?? '',
    cannVersion: accel.cann ?? '',
    musaVersion: accel.musa ?? '',
    osInfo,
    gpuBrand: brand,
    description: `${frameworkType === 'base' ? '基础环境' : '预装框架'}，含 JupyterLab 与 SSH`,
  };
};

export const DEMO_IMAGES = [
  img('pytorch', '2.5.1', '3.12', { cuda: '12.4' }),
  img('pytorch', '2.5.1', '3.11', { cuda: '12.4' }),
  img('pytorch', '2.3.0', '3.11', { cuda: '12.1' }),
  img('pytorch', '2.1.2', '3.10', { cuda: '11.8' }),
  img('pytorch', '1.13.1', '3.8', { cuda: '11.7' }, 'Ubuntu 20.04'),
  img('tensorflow', '2.16.1', '3.11', { cuda: '12.3' }),
  img('tensorflow', '2.15.0', '3.10', { cuda: '12.2' }),
  img('tensorflow', '2.12.0', '3.8', { cuda: '11.8' }, 'Ubuntu 20.04'),
  img('base', '', '3.12', { cuda: '12.4' }),
  img('base', '', '3.10', { cuda: '11.8' }),
  img('pytorch', '2.1.0', '3.9', { cann: '8.0.RC2' }, 'openEuler 22.03'),
  img('pytorch', '2.2.0', '3.10', { musa: '3.1.0' }),
];

export const PRESET_URLS = new Set([
  DEMO_IMAGES[0]?.imageUrl,
  DEMO_IMAGES[5]?.imageUrl,
  DEMO_IMAGES[8]?.imageUrl,
]);

export const DEFAULT_TENANT_SETTINGS: TenantSettings = {
  logoUrl: '/demo/logo.svg',
  logoDarkUrl: '/demo/logo.svg',
  faviconUrl: '/demo/logo.svg',
  theme: DEFAULT_TENANT_CONFIG.theme,
  homepage: DEFAULT_TENANT_CONFIG.homepage,
  contact: { phone: '400-820-8820', email: 'support@suanli.example.cn', supportUrl: '' },
  footer: {
    beianNumber: '皖ICP备2024000001号-1',
    wechatOfficialQr: '/demo/qr-official.svg',
    wechatServiceQr: '/demo/qr-service.svg',
  },
  visibleRegionResources: [],
};

export const SECOND_TENANT = {
  code: 'aurora',
  name: '极光智算',
  host: '127.0.0.1',
  settings: (visibleRegionIds: number[]): TenantSettings => ({
    logoUrl: '/demo/logo-aurora.svg',
    logoDarkUrl: '/demo/logo-aurora.svg',
    faviconUrl: '/demo/logo-aurora.svg',
    theme: {
      primaryColor: '#0a8f6c',
      secondaryColor: '#14c08f',
      backgroundColor: '#f3faf7',
      gradientStart: '#064e3b',
      gradientEnd: '#0a8f6c',
    },
    homepage: {
      title: '极光智算 · 企业级 GPU 云',
      titleColor: '#ffffff',
      subtitle: '专注大模型训练与推理的算力服务，A100 / H100 现货',
      subtitleColor: 'rgba(255,255,255,0.88)',
      description: '',
      heroImage: '',
    },
    contact: { phone: '', email: 'hello@aurora.example.cn', supportUrl: '' },
    footer: { beianNumber: '粤ICP备2024000002号-1', wechatOfficialQr: '', wechatServiceQr: '' },
    visibleRegionResources: visibleRegionIds,
  }),
  visibleRegionCodes: ['anhui-a', 'beijing-a', 'guangdong-b'] as RegionCode[],
};
