/**
 * The public face of monitoring: what other modules may import (besides its tables file).
 */
export { createSamplesRepository, type GpuActivity } from './samples.repository.ts';
