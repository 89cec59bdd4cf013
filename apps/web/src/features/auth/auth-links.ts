import { PHONE_LENGTH } from '@gpu/shared/constants';

/**
 * Links between the authentication pages: the typed phone goes along (?phone= prefills it,
 * SPEC.md §2) and so does the redirect query, so a login reached from a guarded page still
 * returns there after registering or resetting the password.
 */
export function authLink(path: string, from: { phone?: string; search?: string }): string {
  const params = new URLSearchParams();
  const phone = from.phone?.trim();
  if (phone) params.set('phone', phone);
  const redirect = new URLSearchParams(from.search ?? '').get('redirect');
  if (redirect) params.set('redirect', redirect);
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** The ?phone= prefill of the authentication pages (digits only, at most 11). */
export const phoneFromSearch = (search: string) =>
  (new URLSearchParams(search).get('phone') ?? '').replace(/\D/g, '').slice(0, PHONE_LENGTH);
