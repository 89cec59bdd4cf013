import { z } from 'zod';

// Apart from instances.ts: only the server uses these schemas, and the web's instance chunks
// import values from instances.ts (they would carry them).

/** One machine a clone may be placed on (GET /api/gpu/instance/clone-targets). */
export const cloneTargetSchema = z.object({
  machineId: z.number().int(),
  hostName: z.string(),
  regionName: z.string(),
  gpuModel: z.string(),
  gpuIdleNum: z.number().int(),
  /** On the source's host: the copy stays on the machine (fast); else it goes through the registry. */
  sameHost: z.boolean(),
});
export type CloneTarget = z.infer<typeof cloneTargetSchema>;

/**
 * The machines a clone of this instance may go on, the source's first (even without idle GPUs,
 * so the dialog can say so); other hosts only when `otherHosts` (IMAGE_REGISTRY is configured).
 */
export const cloneTargetsSchema = z.object({
  otherHosts: z.boolean(),
  list: z.array(cloneTargetSchema),
});
export type CloneTargets = z.infer<typeof cloneTargetsSchema>;
