import type { Enquiry } from '@gpu/shared/contact';
import type { Page } from '@gpu/shared/envelope';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { adminEnquiryKeys, type EnquiryFilters } from './keys';

/** GET /admin/enquiries (status, keyword; pages from 1). */
export const useAdminEnquiries = (filters: EnquiryFilters) =>
  useQuery({
    queryKey: adminEnquiryKeys.list(filters),
    queryFn: ({ signal }) => api.get<Page<Enquiry>>('/admin/enquiries', { query: { ...filters }, signal }),
    placeholderData: keepPreviousData,
  });

/** POST /admin/enquiries/{id}/handled (audited on the server). */
export const markEnquiryHandled = (id: number, note?: string) =>
  api.post<Enquiry>(`/admin/enquiries/${id}/handled`, { note: note || undefined });
