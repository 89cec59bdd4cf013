/**
 * The public face of catalogue: what other modules may import (besides its tables files). The module's
 * definition for the app is catalogue.module.ts.
 */
