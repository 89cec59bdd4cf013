import type { CreateInstanceRequest, Instance } from '@gpu/shared/instances';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../../lib/api-client';
import { idempotentAction } from '../../../lib/idempotent-action';

export type CreatePayload = Pick<
  CreateInstanceRequest,
  'machineId' | 'instanceName' | 'image' | 'gpuAmount' | 'duration' | 'billingType'
> & { voucherId?: number; extraPorts?: number[] };

/**
 * POST /api/gpu/instance/create (SPEC.md §3): the server re-validates and prices the order; the
 * key makes a repeated click after a timeout answer the first purchase instead of a second one.
 */
export const createInstance = (payload: CreatePayload, idempotencyKey: string) =>
  api.post<Instance>('/gpu/instance/create', payload, { idempotencyKey });

export function useCreateInstance() {
  const [send] = useState(() => idempotentAction(createInstance));
  return useMutation({ mutationFn: send });
}
