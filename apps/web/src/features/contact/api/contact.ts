import type { EnquiryRequest } from '@gpu/shared/contact';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { contactKeys } from './keys';

/** GET /contact/products: what the enquiry form offers (the tenant's list). */
export const useEnquiryProducts = () =>
  useQuery({
    queryKey: contactKeys.products,
    queryFn: ({ signal }) => api.get<string[]>('/contact/products', { signal }),
    staleTime: 5 * 60_000,
  });

/** POST /contact/inquiry. */
export const submitEnquiry = (input: EnquiryRequest) => api.post<{ id: number }>('/contact/inquiry', input);
