/**
 * The public face of metrics: what other modules may import (besides its tables files). The module's
 * definition for the app is metrics.module.ts.
 */
