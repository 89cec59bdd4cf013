/**
 * The public face of pricing: what other modules may import (besides its tables files). The module's
 * definition for the app is pricing.module.ts.
 */
