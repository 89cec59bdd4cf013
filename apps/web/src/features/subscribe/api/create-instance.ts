import type { CreateInstanceRequest, Instance } from '@gpu/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type CreatePayload = Pick<
  CreateInstanceRequest,
  'machineId' | 'instanceName' | 'image' | 'gpuAmount' | 'duration' | 'billingType'
> & { voucherId?: number };

/** POST /api/gpu/instance/create (SPEC.md §3): the server re-validates and prices the order. */
export const createInstance = (payload: CreatePayload) => api.post<Instance>('/gpu/instance/create', payload);

export const useCreateInstance = () => useMutation({ mutationFn: createInstance });
