/**
 * The public face of notices: what other modules may import (besides its tables files). The
 * module's definition for the app is notices.module.ts. Other modules tell a user something with
 * `createNoticesRepository({ db: tx }).notify({...})`, inside their own transaction.
 */

export { noticesErrors } from './notices.errors.ts';
export { createNoticesRepository, type NoticeInput } from './notices.repository.ts';
export { LOW_BALANCE_DEFAULT_UNITS } from './notifications.models.ts';
