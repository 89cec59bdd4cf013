export const contactKeys = {
  products: ['contact', 'products'] as const,
};

export interface EnquiryFilters {
  page: number;
  size: number;
  status?: 'NEW' | 'HANDLED';
  keyword?: string;
}

export const adminEnquiryKeys = {
  all: ['admin', 'enquiries'] as const,
  list: (f: EnquiryFilters) => [...adminEnquiryKeys.all, f] as const,
};
