/**
 * The public face of system: what other modules may import (besides its tables files). The module's
 * definition for the app is system.module.ts.
 */
