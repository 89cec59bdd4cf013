import { z } from 'zod';

/**
 * When a statistic over whole tables was computed: the server reuses such figures for a short
 * while (issue 33) and the screens show their age. Optional: older servers leave it out.
 */
export const statsComputedAt = z.iso.datetime({ offset: true }).optional();
