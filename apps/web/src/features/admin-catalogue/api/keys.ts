/** Query keys of the back office's catalogue, host and tenant screens. */
export const catalogueKeys = {
  all: ['admin', 'catalogue'] as const,
  regions: () => [...catalogueKeys.all, 'regions'] as const,
  gpuTypes: () => [...catalogueKeys.all, 'gpu-types'] as const,
  regionGpuTypes: (regionId: number) => [...catalogueKeys.gpuTypes(), regionId] as const,
  images: (q: object) => [...catalogueKeys.all, 'images', q] as const,
  skus: () => [...catalogueKeys.all, 'skus'] as const,
  hosts: (q: object) => [...catalogueKeys.all, 'hosts', q] as const,
  host: (id: number) => [...catalogueKeys.all, 'host', id] as const,
  hostStats: () => [...catalogueKeys.all, 'host-stats'] as const,
  tenants: () => [...catalogueKeys.all, 'tenants'] as const,
  tenantHosts: (id: number) => [...catalogueKeys.all, 'tenant-hosts', id] as const,
  tenantPrices: (id: number) => [...catalogueKeys.all, 'tenant-prices', id] as const,
};
