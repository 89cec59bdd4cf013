/**
 * The public face of notices: what other modules may import (besides its tables file). The
 * module's definition for the app is notices.module.ts.
 */
export { createNoticesRepository } from './notices.repository.ts';
