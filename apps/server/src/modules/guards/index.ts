/**
 * The public face of guards: what other modules may import (besides its tables file). The
 * module's definition for the app is guards.module.ts.
 */

export { guardsErrors } from './guards.errors.ts';
export { runGuardsCheck } from './tasks/check.task.ts';
