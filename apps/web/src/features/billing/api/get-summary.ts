import type { BillingMonitorInfo, DailyConsumption } from '@gpu/shared/bills';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { billKeys } from './keys';

/** GET /v2/billing/monitor/info: spend today/this month/total, running count, hourly burn, hours left. */
export const useBillingMonitor = () =>
  useQuery({
    queryKey: billKeys.monitor(),
    queryFn: () => api.get<BillingMonitorInfo>('/v2/billing/monitor/info'),
    staleTime: 0,
    refetchInterval: 60_000,
  });

/** GET /v2/billing/daily-consumption?days=: spend per Shanghai day, oldest first, zero-filled. */
export const useDailyConsumption = (days = 30) =>
  useQuery({
    queryKey: billKeys.daily(days),
    queryFn: () => api.get<DailyConsumption>('/v2/billing/daily-consumption', { query: { days } }),
    staleTime: 0,
  });
