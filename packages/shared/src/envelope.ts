import { z } from 'zod';

/**
 * Every /api answer has this body (DESIGN §3); `code` is a string, '200' on success. A failure
 * also carries `errorCode`, the error's stable name.
 */
export interface Envelope<T> {
  success: boolean;
  code: string;
  message: string;
  data: T;
  errorCode?: string;
}

export const envelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({
    success: z.boolean().meta({ examples: [true] }),
    code: z.string().meta({ examples: ['200'] }),
    message: z.string().meta({ examples: ['成功'] }),
    data,
  });

export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  code: z.string().meta({ examples: ['404'] }),
  message: z.string().meta({ examples: ['实例不存在'] }),
  data: z.null(),
  /** The stable name of the error (`instances.not_found`, `common.validation`); see docs/api.md. */
  errorCode: z.string().meta({ examples: ['instances.not_found'] }),
});

/**
 * Where the back office's lists over whole large tables stop counting (issue 33): past it the
 * total says "10,000+" (`totalCapped`), which still reaches page 1,000 at 10 a page.
 */
export const TOTAL_CAP = 10_000;

/** Paged lists (DESIGN §3). */
export const pageSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    list: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    size: z.number().int(),
    /** true: there are more than `total` (= TOTAL_CAP) rows; only lists over whole large tables say so. */
    totalCapped: z.boolean().optional(),
  });

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  size: number;
  totalCapped?: boolean;
}
