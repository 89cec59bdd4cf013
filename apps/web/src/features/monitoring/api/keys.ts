import type { MetricsRange } from '@gpu/shared/monitoring';

/** Query keys of the charts and the list's sparklines. */
export const monitoringKeys = {
  all: ['monitoring'] as const,
  instance: (uuid: string, range: MetricsRange) => [...monitoringKeys.all, 'instance', uuid, range] as const,
  host: (id: number, range: MetricsRange) => [...monitoringKeys.all, 'host', id, range] as const,
  sparklines: () => [...monitoringKeys.all, 'sparklines'] as const,
};
