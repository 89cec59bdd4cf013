import type { Image } from '@gpu/shared/images';
import type { MarketItem } from '@gpu/shared/market';

/** A market item as GET /api/gpu/market answers it (the demo L40S host). */
export function marketItem(patch: Partial<MarketItem> = {}): MarketItem {
  return {
    id: 5,
    skuGpuId: 'gpu-5',
    gpuName: 'L40S',
    gpuBrand: 'NVIDIA',
    memoryGb: 48,
    hostName: 'nm-a-l40s-01',
    regionId: 4,
    regionName: '内蒙古A区',
    cpuPerGpu: 12,
    cpuInfo: 'AMD EPYC 7763 64-Core',
    systemDiskGb: 30,
    dataDiskGb: 50,
    gpuNum: 8,
    gpuIdleNum: 8,
    price: 3.98,
    docker: true,
    nvidiaDriver: '550.127.05',
    cudaVersion: '12.4',
    isLocalDocker: true,
    originalPrice: 3.98,
    discountPrice: 3.98,
    discountRate: 1,
    hasDiscount: false,
    discountDescription: '',
    discountEndTime: null,
    packagePrice: null,
    packageDiscountPrice: null,
    ...patch,
  };
}

let imageId = 0;
export function image(patch: Partial<Image>): Image {
  imageId += 1;
  return {
    id: imageId,
    imageName: 'PyTorch',
    imageUrl: `registry.gpu.local/image-${imageId}`,
    frameworkType: 'pytorch',
    frameworkVersion: '2.5.1',
    pythonVersion: '3.12',
    cudaVersion: '12.4',
    cannVersion: '',
    musaVersion: '',
    osInfo: 'Ubuntu 22.04',
    gpuBrand: 'NVIDIA',
    platformType: 'local',
    description: '',
    ...patch,
  };
}
