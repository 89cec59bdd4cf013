/**
 * The public face of idempotency: what other modules may import (besides its tables files). The module's
 * definition for the app is idempotency.module.ts.
 */
export { idempotencyErrors } from './idempotency.errors.ts';
export { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN } from './idempotency.models.ts';
