import { api } from '../../../lib/api-client';

/** GET /auth/check-phone: whether the phone may still register in this tenant. */
export const checkPhone = async (phone: string, signal?: AbortSignal) =>
  (await api.get<{ available: boolean }>('/auth/check-phone', { query: { phone }, signal })).available;
