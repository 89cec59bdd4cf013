import type {
  BlockchainNetwork,
  BlockchainOrder,
  BlockchainOrderCreate,
  BlockchainStats,
  BlockchainStatus,
} from '@gpu/shared/blockchain';
import type { Page } from '@gpu/shared/envelope';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { blockchainKeys } from './keys';

/** Pending orders are looked at again this often while the page is open. */
const PENDING_REFRESH_MS = 10_000;

/** GET /blockchain/user/orders (page from 1, size). */
export const useBlockchainOrders = (page: number, size: number) =>
  useQuery({
    queryKey: blockchainKeys.list(page, size),
    queryFn: ({ signal }) =>
      api.get<Page<BlockchainOrder>>('/blockchain/user/orders', { query: { page, size }, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.data?.list.some((o) => o.status === 'PENDING') ? PENDING_REFRESH_MS : false,
  });

/** GET /blockchain/user/orders/stats. */
export const useBlockchainStats = () =>
  useQuery({
    queryKey: blockchainKeys.stats(),
    queryFn: ({ signal }) => api.get<BlockchainStats>('/blockchain/user/orders/stats', { signal }),
  });

/** POST /blockchain/orders: records a payment made on chain. */
export const createBlockchainOrder = (input: BlockchainOrderCreate) =>
  api.post<BlockchainOrder>('/blockchain/orders', input);

/** GET /blockchain/orders/{id}/status: asks the chain about a pending order. */
export const getBlockchainOrderStatus = (id: number) =>
  api.get<BlockchainStatus>(`/blockchain/orders/${id}/status`);

/** GET /blockchain/networks: our receiving address, minimum and confirmations per network. */
export const useBlockchainNetworks = () =>
  useQuery({
    queryKey: blockchainKeys.networks(),
    queryFn: ({ signal }) => api.get<BlockchainNetwork[]>('/blockchain/networks', { signal }),
    staleTime: 5 * 60_000,
  });
