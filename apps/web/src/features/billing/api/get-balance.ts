import type { Balance } from '@gpu/shared/auth';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { billingKeys } from './keys';

/** GET /user/balance: available, frozen, total. */
export const useBalance = (enabled = true) =>
  useQuery({ queryKey: billingKeys.balance(), queryFn: () => api.get<Balance>('/user/balance'), enabled });
