/**
 * The public face of monitoring: what other modules may import (besides its tables file). The
 * module's definition for the app is monitoring.module.ts.
 */
export { createSamplesRepository, type GpuActivity } from './samples.repository.ts';
