import { type DistributionSkip, PHONE_PATTERN } from '@gpu/shared';

/** A user a listed phone may name: any status, any tenant (the skip reasons need both). */
export interface PhoneOwner {
  userId: number;
  tenantId: number;
  phone: string;
  username: string;
  status: string;
}

/**
 * Sorts a pasted phone list into the users it reaches and the phones it skips, each with why, in
 * the order given (so the administrator can match the answer to the list). Without a tenant a
 * phone reaches its active account in every tenant, as before.
 */
export function sortPhones(
  phones: string[],
  owners: PhoneOwner[],
  tenantId?: number,
): { reached: PhoneOwner[]; skipped: DistributionSkip[] } {
  const byPhone = new Map<string, PhoneOwner[]>();
  for (const o of owners) byPhone.set(o.phone, [...(byPhone.get(o.phone) ?? []), o]);
  const seen = new Set<string>();
  const reached: PhoneOwner[] = [];
  const skipped: DistributionSkip[] = [];
  for (const phone of phones) {
    if (!PHONE_PATTERN.test(phone)) {
      skipped.push({ phone, reason: 'invalid' });
      continue;
    }
    if (seen.has(phone)) {
      skipped.push({ phone, reason: 'duplicate' });
      continue;
    }
    seen.add(phone);
    const all = byPhone.get(phone) ?? [];
    const mine = tenantId ? all.filter((o) => o.tenantId === tenantId) : all;
    const active = mine.filter((o) => o.status === 'ACTIVE');
    if (all.length === 0) skipped.push({ phone, reason: 'not_registered' });
    else if (mine.length === 0) skipped.push({ phone, reason: 'other_tenant' });
    else if (active.length === 0) skipped.push({ phone, reason: 'disabled' });
    else reached.push(...active);
  }
  return { reached: reached.sort((a, b) => a.userId - b.userId), skipped };
}
