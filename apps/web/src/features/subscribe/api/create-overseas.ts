import type { Instance } from '@gpu/shared/instances';
import type { VastaiCreateRequest } from '@gpu/shared/vastai';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../../lib/api-client';
import { idempotentAction } from '../../../lib/idempotent-action';

/** POST /api/gpu/vastai/instance/create (SPEC.md §3 overseas payload): offerId, label, diskSpace, image. */
export const createOverseasInstance = (payload: VastaiCreateRequest, idempotencyKey: string) =>
  api.post<Instance>('/gpu/vastai/instance/create', payload, { idempotencyKey });

export function useCreateOverseasInstance() {
  const [send] = useState(() => idempotentAction(createOverseasInstance));
  return useMutation({ mutationFn: send });
}
